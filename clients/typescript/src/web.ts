// @referee/client/web: browser entry point (gRPC-Web over fetch; no Node imports).
// The server must allow the page's origin (CORS); see README.md.
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import type { Interceptor } from "@connectrpc/connect";
import { createRefereeClientFromTransport, type RefereeClient } from "./core.js";

export * from "./core.js";

export interface RefereeWebClientOptions {
  /** Only `grpc-web` works in a browser. */
  transport?: "grpc-web";
  /** Connect interceptors (auth headers, logging). */
  interceptors?: Interceptor[];
  /** Deadline of every call in ms (none by default). */
  defaultTimeoutMs?: number;
  /**
   * Sealed mode: the credential sent as the `referee-credential` header with every call (a
   * seat's `seat-S:KEY_ID:HEX` or the arbiter's `arbiter:KEY_ID:HEX`); see `withCredential`.
   */
  credential?: string;
}

/** A Referee client over gRPC-Web for browsers. */
export function createRefereeClient(baseUrl: string, options: RefereeWebClientOptions = {}): RefereeClient {
  const { interceptors = [], defaultTimeoutMs, credential } = options;
  return createRefereeClientFromTransport(
    createGrpcWebTransport({ baseUrl, useBinaryFormat: true, interceptors, defaultTimeoutMs }),
    { credential },
  );
}
