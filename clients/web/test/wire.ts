// What the page sent and received, decoded: every gRPC-Web call of the page (binary framing,
// application/grpc-web+proto) recorded from Chromium's network events and decoded with the
// generated schemas, so the tests can assert on the bytes the page got, not only on the DOM.
import { fromBinary, type DescMessage, type Message } from "@bufbuild/protobuf";
import type { Page, Request } from "playwright-core";
import { Referee } from "../../typescript/src/gen/referee/v1/referee_pb.js";

export interface Call {
  method: string;
  /** The `referee-credential` header sent ("" when none). */
  credential: string;
  request: Message;
  /** The response messages (data frames; trailers left out). */
  responses: Message[];
}

/** The data frames of a gRPC-Web body. */
function frames(body: Buffer): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i + 5 <= body.length; ) {
    const flag = body[i];
    const len = body.readUInt32BE(i + 1);
    const data = body.subarray(i + 5, i + 5 + len);
    if ((flag & 0x80) === 0) out.push(data);
    i += 5 + len;
  }
  return out;
}

/** Records every API call of `page` from now on; `calls()` waits for the bodies and decodes them. */
export function recordCalls(page: Page) {
  const pending: Array<Promise<Call | undefined>> = [];
  const onRequest = (req: Request) => {
    const m = /\/referee\.v1\.Referee\/(\w+)$/.exec(new URL(req.url()).pathname);
    if (!m) return;
    const method = Referee.methods.find((x) => x.name === m[1]);
    if (!method) return;
    pending.push(
      (async () => {
        const res = await req.response();
        const body = res ? await res.body().catch(() => Buffer.alloc(0)) : Buffer.alloc(0);
        const reqBody = req.postDataBuffer() ?? Buffer.alloc(0);
        const headers = await req.allHeaders();
        return {
          method: method.name,
          credential: headers["referee-credential"] ?? "",
          request: fromBinary(method.input as DescMessage, frames(reqBody)[0] ?? new Uint8Array()),
          responses: frames(body).map((f) => fromBinary(method.output as DescMessage, f)),
        };
      })(),
    );
  };
  page.on("requestfinished", onRequest);
  page.on("requestfailed", onRequest);
  return {
    async calls(): Promise<Call[]> {
      page.off("requestfinished", onRequest);
      page.off("requestfailed", onRequest);
      return (await Promise.all(pending)).filter((c): c is Call => c !== undefined);
    },
  };
}

/** Every message inside `m` (itself included), depth first. */
export function* messages(m: unknown): Generator<Message> {
  if (m === null || typeof m !== "object") return;
  if (Array.isArray(m)) {
    for (const x of m) yield* messages(x);
    return;
  }
  if (m instanceof Uint8Array) return;
  const o = m as Record<string, unknown>;
  if (typeof o.$typeName === "string") yield o as unknown as Message;
  for (const [k, v] of Object.entries(o)) if (k !== "$typeName") yield* messages(v);
}
