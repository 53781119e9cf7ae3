// GetGameData through the helper layer, over gRPC and gRPC-Web: the static data a UI draws a
// game with, kept per client by its content hash.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createRefereeClient, type TransportKind } from "../src/index.js";
import { startServer, type RunningServer } from "./server.js";

let server: RunningServer;

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

const transports: TransportKind[] = ["grpc", "grpc-web"];

for (const transport of transports) {
  describe(`gameData over ${transport}`, () => {
    it("answers each 1841 variant and caches by hash", async () => {
      const client = createRefereeClient(server.baseUrl, { transport });
      const v2 = await client.gameData("1841");
      const lite = await client.gameData("1841", { lite: true });
      assert.equal(v2.variant, "v2");
      assert.equal(lite.variant, "lite");
      assert.notEqual(v2.contentHash, lite.contentHash);
      const f8 = v2.data.hexes.find((h: { id: string }) => h.id === "F8");
      assert.deepEqual([f8.row, f8.column], [5, 8]);
      assert.equal(lite.data.concessions.length, 5);
      assert.equal(await client.gameData("1841"), v2);
    });

    it("answers the Autobahn board with positions", async () => {
      const client = createRefereeClient(server.baseUrl, { transport });
      const ab = await client.gameData("autobahn");
      assert.equal(ab.variant, "reconstructed-2026-3");
      const sections = Object.keys(ab.data.positions.sections).length;
      const inLinks = ab.data.board.links.reduce((n: number, l: { sections: unknown[] }) => n + l.sections.length, 0);
      assert.equal(sections, inLinks);
    });
  });
}
