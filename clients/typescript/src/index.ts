// @referee/client: TypeScript client of Referee, the stateless rules engine for 1841 and
// Autobahn. Node entry point: gRPC (HTTP/2, connect-node) or gRPC-Web (fetch, connect-web).
// Browsers: import "@referee/client/web" (gRPC-Web only, no Node imports).
import { createGrpcTransport } from "@connectrpc/connect-node";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import type { Interceptor, Transport } from "@connectrpc/connect";
import { createRefereeClientFromTransport, type RefereeClient } from "./core.js";

export * from "./core.js";

/** `grpc`: gRPC over HTTP/2 (Node only). `grpc-web`: gRPC-Web over fetch (Node ≥18 and browsers). */
export type TransportKind = "grpc" | "grpc-web";

export interface RefereeClientOptions {
  /** Wire protocol; default `grpc`. */
  transport?: TransportKind;
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

/** Builds the Connect transport for `baseUrl` (e.g. `http://127.0.0.1:50051`). */
export function createRefereeTransport(baseUrl: string, options: RefereeClientOptions = {}): Transport {
  const { transport = "grpc", interceptors = [], defaultTimeoutMs } = options;
  switch (transport) {
    case "grpc":
      return createGrpcTransport({ baseUrl, useBinaryFormat: true, interceptors, defaultTimeoutMs });
    case "grpc-web":
      // Binary protobuf framing (application/grpc-web+proto), which every gRPC-Web server speaks.
      return createGrpcWebTransport({ baseUrl, useBinaryFormat: true, interceptors, defaultTimeoutMs });
    default:
      throw new Error(`unknown transport ${String(transport)}: use "grpc" or "grpc-web"`);
  }
}

/** A Referee client for the server at `baseUrl`, over gRPC (default) or gRPC-Web. */
export function createRefereeClient(baseUrl: string, options: RefereeClientOptions = {}): RefereeClient {
  return createRefereeClientFromTransport(createRefereeTransport(baseUrl, options), { credential: options.credential });
}
