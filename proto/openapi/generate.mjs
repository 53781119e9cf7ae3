// Generates the OpenAPI 3.1 description of Referee's HTTP/JSON routes (`POST /v1/<Method>`,
// service/src/http_json.rs) from the proto files, into referee.v1.openapi.json beside this file.
//
//   npm ci && npm run generate     (from proto/openapi/; `npm run check` fails on a difference)
//
// The proto files are read by buf (`buf build`, the same buf as scripts/proto-check.sh) and the
// descriptors by Buf's protobuf-es (@bufbuild/protobuf: its field descriptors carry the proto3
// JSON names, @bufbuild/protoplugin: the comments). The schemas follow the canonical proto3 JSON
// mapping that the server speaks (pbjson): lowerCamelCase names, 64-bit integers as strings
// (numbers accepted), enums by name (numbers accepted), bytes in base64, maps as objects, a
// oneof's members as plain fields of which at most one is set, default values left out.
//
// No maintained generator that understands the proto3 JSON mapping is published on the
// registries reachable here (gnostic's protoc-gen-openapi and protoc-gen-connect-openapi are Go
// programs, not on npm, PyPI or crates.io), hence this small generator; the document is
// committed (the server embeds it, so `cargo build` needs no Node.js) and the test run checks
// that it is valid OpenAPI (a maintained validator, below), matches a fresh generation and the
// running server (service/src/http_json.rs tests, scripts/openapi-check.sh).
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFileRegistry, fromBinary, ScalarType } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { getComments } from "@bufbuild/protoplugin";
import { Validator } from "@seriousme/openapi-schema-validator";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const out = join(here, "referee.v1.openapi.json");
const buf = join(here, "node_modules", ".bin", "buf");

const image = execFileSync(buf, ["build", join(root, "proto"), "--as-file-descriptor-set", "-o", "-"], {
  maxBuffer: 64 << 20,
});
const registry = createFileRegistry(fromBinary(FileDescriptorSetSchema, image));
const service = registry.getService("referee.v1.Referee");
if (!service) throw new Error("referee.v1.Referee not found in proto/");

/** The comment of a descriptor, without the line prefixes (undefined when none). */
function comment(desc) {
  const c = getComments(desc).leading?.trim();
  return c ? c.replace(/\n /g, "\n") : undefined;
}

const int64 = (desc) => ({
  type: ["string", "integer"],
  format: desc,
  description: "64-bit integer: a decimal string in responses; a string or a number in requests",
});

/** The schema of one value of a scalar type in proto3 JSON. */
function scalar(t) {
  switch (t) {
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return { oneOf: [{ type: "number" }, { type: "string", enum: ["NaN", "Infinity", "-Infinity"] }] };
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return { type: "integer", format: "int32" };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return { type: "integer", format: "int64", minimum: 0, maximum: 4294967295 };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return int64("int64");
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return int64("uint64");
    case ScalarType.BOOL:
      return { type: "boolean" };
    case ScalarType.STRING:
      return { type: "string" };
    case ScalarType.BYTES:
      return { type: "string", contentEncoding: "base64", format: "byte" };
    default:
      throw new Error(`unknown scalar type ${t}`);
  }
}

const ref = (desc) => ({ $ref: `#/components/schemas/${desc.typeName}` });

/** The schema of one value (not the repeated/map wrapper) of a field. */
function value(field) {
  switch (field.fieldKind) {
    case "scalar":
      return scalar(field.scalar);
    case "enum":
      return ref(field.enum);
    case "message":
      return ref(field.message);
    case "list":
      return field.listKind === "scalar" ? scalar(field.scalar) : ref(field.listKind === "enum" ? field.enum : field.message);
    case "map":
      return field.mapKind === "scalar" ? scalar(field.scalar) : ref(field.mapKind === "enum" ? field.enum : field.message);
    default:
      throw new Error(`unknown field kind ${field.fieldKind}`);
  }
}

function fieldSchema(field) {
  let schema;
  if (field.fieldKind === "list") {
    schema = { type: "array", items: value(field) };
  } else if (field.fieldKind === "map") {
    schema = { type: "object", additionalProperties: value(field) };
  } else {
    schema = value(field);
  }
  const text = [comment(field)];
  if (field.oneof) text.push(`Member of oneof \`${field.oneof.name}\`: at most one of ${field.oneof.fields.map((f) => `\`${f.jsonName}\``).join(", ")} is set.`);
  const description = text.filter(Boolean).join("\n\n");
  if (!description) return schema;
  // A $ref with siblings is valid in OpenAPI 3.1.
  return { ...schema, description };
}

const schemas = {};
for (const file of registry.files) {
  for (const type of registry) {
    if (type.file !== file) continue;
    if (type.kind === "message") {
      const properties = {};
      for (const f of type.fields) properties[f.jsonName] = fieldSchema(f);
      schemas[type.typeName] = {
        type: "object",
        ...(comment(type) ? { description: comment(type) } : {}),
        properties,
      };
    } else if (type.kind === "enum") {
      schemas[type.typeName] = {
        type: "string",
        ...(comment(type) ? { description: `${comment(type)}\n\nIn requests the value's number is accepted too.` } : {}),
        enum: type.values.map((v) => v.name),
      };
    }
  }
}
schemas["referee.v1.Error"] = {
  type: "object",
  description:
    "The body of every HTTP error: the gRPC status code in SCREAMING_SNAKE_CASE and a message (docs/API.md).",
  properties: {
    code: { type: "string", examples: ["INVALID_ARGUMENT"] },
    message: { type: "string" },
  },
  required: ["code", "message"],
};

const errors = {
  default: {
    description:
      "An error: 400 INVALID_ARGUMENT, 403, 404, 405 (wrong HTTP method), 408 (body too slow), 412, 413 (body too large), 429, 500, 501, 504 DEADLINE_EXCEEDED (docs/API.md).",
    content: { "application/json": { schema: { $ref: "#/components/schemas/referee.v1.Error" } } },
  },
};
const timeoutHeader = {
  name: "grpc-timeout",
  in: "header",
  required: false,
  description: "The call's deadline in gRPC's notation (e.g. `5S`, `200m`).",
  schema: { type: "string" },
};

const paths = {};
for (const m of service.methods) {
  const streaming = m.methodKind === "server_streaming";
  const op = {
    operationId: m.name,
    summary: `${service.typeName}/${m.name}`,
    ...(comment(m) ? { description: comment(m) } : {}),
    tags: ["Referee"],
    parameters: [timeoutHeader],
    requestBody: {
      required: false,
      description: "The request message in proto3 JSON (an empty body is the empty message).",
      content: { "application/json": { schema: ref(m.input) } },
    },
    responses: {
      200: streaming
        ? {
            description:
              "Every message of the stream as one line of JSON (newline-delimited); an error after the first message ends the body with a line holding an Error.",
            content: { "application/x-ndjson": { schema: ref(m.output) } },
          }
        : { description: "The response message in proto3 JSON.", content: { "application/json": { schema: ref(m.output) } } },
      ...errors,
    },
  };
  paths[`/v1/${m.name}`] = { post: op };
  if (m.name === "ListGames") {
    const { requestBody: _ignored, ...get } = op;
    paths["/v1/ListGames"].get = { ...get, operationId: "ListGamesGet", description: `${op.description ?? ""}\n\nThe same as POST with an empty body.`.trim() };
  }
}
paths["/v1/openapi.json"] = {
  get: {
    operationId: "OpenApi",
    summary: "This document",
    tags: ["Referee"],
    responses: { 200: { description: "The OpenAPI description of the HTTP/JSON routes.", content: { "application/json": { schema: { type: "object" } } } } },
  },
};

// `GET /v1/GameData` (service/src/http_json.rs `game_data_get`): GetGameData's document itself,
// cacheable by ETag, for pages that draw a board.
const etagHeader = {
  description: "The document's content hash in quotes (`\"sha256:…\"`), GetGameData's `content_hash`.",
  schema: { type: "string" },
};
paths["/v1/GameData"] = {
  get: {
    operationId: "GameDataGet",
    summary: "The static game data document (GetGameData's `data_json` itself)",
    description:
      "What `POST /v1/GetGameData` carries in `dataJson`, served as the JSON document itself with an `ETag`, so a browser or a proxy can cache it: the same tag in `If-None-Match` answers 304 without a body (docs/API.md, \"Static game data\").",
    tags: ["Referee"],
    parameters: [
      { name: "game", in: "query", required: true, description: "Game id from ListGames, e.g. `1841`.", schema: { type: "string" } },
      {
        name: "options",
        in: "query",
        required: false,
        style: "form",
        explode: true,
        description:
          "Every query parameter but `game` is an option, as NewGame takes it (`lite=true`); only those that change what is drawn matter (1841: `version_1`, `lite`; Autobahn: `board`).",
        schema: { type: "object", additionalProperties: { type: "string" } },
      },
      { name: "If-None-Match", in: "header", required: false, description: "An ETag of this route.", schema: { type: "string" } },
    ],
    responses: {
      200: {
        description: "The game data document (1841: map, tiles, market, corporations, trains, phases; Autobahn: the board with drawing positions).",
        headers: { ETag: etagHeader },
        content: { "application/json": { schema: { type: "object" } } },
      },
      304: { description: "Not modified: the `If-None-Match` tag is current.", headers: { ETag: etagHeader } },
      ...errors,
    },
  },
};

const doc = {
  openapi: "3.1.0",
  info: {
    title: "Referee HTTP/JSON API",
    version: service.file.proto.package,
    description:
      "Every RPC of referee.v1.Referee (proto/referee/v1/referee.proto) as `POST /v1/<Method>` with canonical proto3 JSON bodies, on the same port as gRPC and gRPC-Web. Generated from the proto files by proto/openapi/generate.mjs; docs/API.md explains the calls.",
    license: { name: "MIT OR Apache-2.0", identifier: "MIT OR Apache-2.0" },
  },
  servers: [{ url: "http://127.0.0.1:50051", description: "`referee serve` with its default address" }],
  tags: [{ name: "Referee", description: comment(service) ?? "The Referee service." }],
  paths,
  components: { schemas },
};

// Valid OpenAPI 3.1 before anything is written or compared: a maintained validator checks the
// document against the official OpenAPI JSON schema (@seriousme/openapi-schema-validator).
const validation = await new Validator().validate(structuredClone(doc));
if (!validation.valid) {
  console.error(`openapi: the generated document is not valid OpenAPI ${doc.openapi}:`);
  console.error(JSON.stringify(validation.errors, null, 2));
  process.exit(1);
}

const text = `${JSON.stringify(doc, null, 2)}\n`;
if (process.argv.includes("--check")) {
  let old = "";
  try {
    old = readFileSync(out, "utf8");
  } catch {}
  if (old !== text) {
    console.error(`openapi: ${out} is not what proto/ generates: run \`npm run generate\` in proto/openapi and commit it`);
    process.exit(1);
  }
  console.log(`openapi: ${out} matches proto/ and is valid OpenAPI ${doc.openapi} (${Object.keys(paths).length} paths, ${Object.keys(schemas).length} schemas)`);
} else {
  writeFileSync(out, text);
  console.log(`openapi: wrote ${out} (${Object.keys(paths).length} paths, ${Object.keys(schemas).length} schemas)`);
}
