// 1841: the map as SVG hexes (printed hexes, laid tiles, tokens, the last routes run), tile lays
// chosen on the map, the stock market with price markers, corporations and players.
// Everything static comes from GetGameData (the engine's data files); everything that changes
// from the seat's View.
import { create } from "@bufbuild/protobuf";
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { ActionSchema, type Action, type Legal, type g1841pb } from "@referee/client";
import type { Entry } from "./session";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const R = 34; // hex circumradius in pixels
const SQ3 = Math.sqrt(3);

const HEX_FILL: Record<string, string> = {
  white: "#efe9d6",
  yellow: "#f7e05a",
  green: "#76b55a",
  brown: "#b07a4a",
  gray: "#b9b9b9",
  red: "#d9503f",
  blue: "#5ea7d8",
};

/** Named CSS colours of 18xx.games are valid CSS; `#ffffff`-style too. */
export function cssColour(c: string | undefined): string {
  return c ? c : "#888";
}

export interface Corp {
  sym: string;
  color: string;
  text: string;
}

export function corpColours(data: Json): Map<string, Corp> {
  const m = new Map<string, Corp>();
  for (const c of data.corporations ?? []) m.set(c.sym, { sym: c.sym, color: c.color, text: c.text_color });
  return m;
}

function edgePoint(e: number, r = R): [number, number] {
  const a = ((90 + 60 * e) * Math.PI) / 180;
  return [(r * SQ3) / 2 * Math.cos(a), (r * SQ3) / 2 * Math.sin(a)];
}

function corners(r = R): string {
  return [0, 1, 2, 3, 4, 5]
    .map((i) => {
      const a = (i * 60 * Math.PI) / 180;
      return `${(r * Math.cos(a)).toFixed(1)},${(r * Math.sin(a)).toFixed(1)}`;
    })
    .join(" ");
}

type End = { edge: number } | { node: number };
function parseEnd(v: number | string): End {
  return typeof v === "number" ? { edge: v } : { node: Number(String(v).slice(1)) };
}

/** Where each node of a hex or tile sits: its `loc` hint, else toward the edges it joins. */
function nodePositions(nodes: Json[], paths: Json[], rotation: number): Array<[number, number]> {
  const pos: Array<[number, number]> = nodes.map((n: Json, i: number) => {
    if (nodes.length === 1) return [0, 0];
    if (n.loc !== undefined && n.loc !== null && n.loc !== "center") {
      const [x, y] = edgePoint(Number(n.loc) + rotation);
      return [x * 0.55, y * 0.55];
    }
    let sx = 0;
    let sy = 0;
    let k = 0;
    for (const p of paths) {
      for (const [a, b] of [[p.a, p.b], [p.b, p.a]]) {
        const ea = parseEnd(a);
        const eb = parseEnd(b);
        if ("node" in ea && ea.node === i && "edge" in eb) {
          const [x, y] = edgePoint(eb.edge + rotation);
          sx += x;
          sy += y;
          k++;
        }
      }
    }
    if (k === 0) return [0, 0];
    const len = Math.hypot(sx, sy) || 1;
    return [(sx / len) * R * 0.42, (sy / len) * R * 0.42];
  });
  // Separate nodes that landed on one spot.
  for (let i = 0; i < pos.length; i++) {
    for (let j = 0; j < i; j++) {
      if (Math.hypot(pos[i][0] - pos[j][0], pos[i][1] - pos[j][1]) < R * 0.3) {
        pos[i] = [pos[i][0] + R * 0.4 * (i % 2 ? 1 : -1), pos[i][1] + R * 0.25];
      }
    }
  }
  return pos;
}

function revenueText(rev: Json): string {
  if (typeof rev === "number") return rev ? String(rev) : "";
  if (rev && typeof rev === "object") return Object.values(rev).join("/");
  return "";
}

/** The track and stops of a printed hex or a tile, drawn around (0, 0). */
function Track(props: {
  nodes: Json[];
  paths: Json[];
  rotation: number;
  tokens?: Array<Corp[] | undefined>;
  small?: boolean;
}) {
  const { nodes, paths, rotation } = props;
  const pos = nodePositions(nodes, paths, rotation);
  const w = R * 0.16;
  const lines = paths.map((p: Json, i: number) => {
    const a = parseEnd(p.a);
    const b = parseEnd(p.b);
    const pt = (e: End): [number, number] => ("edge" in e ? edgePoint(e.edge + rotation) : pos[e.node] ?? [0, 0]);
    const [x1, y1] = pt(a);
    const [x2, y2] = pt(b);
    const d = "edge" in a && "edge" in b ? `M${x1},${y1} Q0,0 ${x2},${y2}` : `M${x1},${y1} L${x2},${y2}`;
    return <path key={i} d={d} stroke="#222" stroke-width={w} fill="none" stroke-linecap="round" />;
  });
  let cityIndex = 0;
  const stops = nodes.map((n: Json, i: number) => {
    const [x, y] = pos[i];
    const rev = revenueText(n.revenue);
    if (n.type === "city" || n.type === "pass") {
      const here = props.tokens?.[cityIndex] ?? [];
      cityIndex += 1;
      const slots = Math.max(1, n.slots ?? 1, here.length);
      const cr = R * 0.2;
      return (
        <g key={`n${i}`} transform={`translate(${x},${y})`}>
          {Array.from({ length: slots }, (_, s) => {
            const cx = (s - (slots - 1) / 2) * cr * 2;
            const t = here[s];
            return (
              <g key={s}>
                <circle cx={cx} cy={0} r={cr} fill={n.type === "pass" ? "#ddd" : "#fff"} stroke="#222" stroke-width={1.2} />
                {t && (
                  <g data-token={t.sym}>
                    <circle cx={cx} cy={0} r={cr * 0.9} fill={cssColour(t.color)} stroke="#000" stroke-width={0.6} />
                    <text x={cx} y={2.5} font-size={6} text-anchor="middle" fill={cssColour(t.text)}>
                      {t.sym.slice(0, 5)}
                    </text>
                  </g>
                )}
              </g>
            );
          })}
          {rev && !props.small && (
            <text x={cr * slots + 2} y={-cr} font-size={8} fill="#000">
              {rev}
            </text>
          )}
        </g>
      );
    }
    if (n.type === "offboard") {
      return (
        <text key={`n${i}`} x={x} y={y + 3} font-size={8} text-anchor="middle" font-weight="bold" fill="#fff">
          {rev}
        </text>
      );
    }
    // town or port
    return (
      <g key={`n${i}`}>
        <circle cx={x} cy={y} r={R * 0.1} fill={n.type === "port" ? "#134" : "#000"} />
        {rev && !props.small && (
          <text x={x + 5} y={y - 4} font-size={7}>
            {rev}
          </text>
        )}
      </g>
    );
  });
  return (
    <g>
      {lines}
      {stops}
    </g>
  );
}

interface LayOption {
  tile: string;
  rotation: number;
  action: Action;
}

/** The 1841 map: click a highlighted hex to see the tile lays (and token placements) there. */
export function Map1841(props: {
  data: Json;
  state: g1841pb.State;
  legal?: Legal;
  lastRoutes?: g1841pb.Route[];
  onAct: (a: Action) => void;
}) {
  const { data, state, legal } = props;
  const [selected, setSelected] = useState<string | undefined>();
  const tiles = new Map<string, Json>((data.tiles as Json[]).map((t) => [t.id, t]));
  const colours = corpColours(data);
  const laid = new Map<string, g1841pb.PlacedTile>((state.operations?.tiles ?? []).map((t) => [t.hex, t]));
  const tokens = new Map<string, Array<Corp[] | undefined>>();
  for (const c of state.corporations) {
    for (const t of c.tokens) {
      const list = tokens.get(t.hex) ?? [];
      list[t.city] = [...(list[t.city] ?? []), colours.get(c.sym) ?? { sym: c.sym, color: "#888", text: "#fff" }];
      tokens.set(t.hex, list);
    }
  }
  // Legal map actions by hex.
  const lays = new Map<string, LayOption[]>();
  const tokenActions = new Map<string, Action[]>();
  for (const a of legal?.actions ?? []) {
    const g = a.action.case === "g1841" ? a.action.value.action : undefined;
    if (g?.case === "layTile") {
      const l = lays.get(g.value.hex) ?? [];
      l.push({ tile: g.value.tile, rotation: g.value.rotation, action: a });
      lays.set(g.value.hex, l);
    } else if (g?.case === "placeToken") {
      const l = tokenActions.get(g.value.hex) ?? [];
      l.push(a);
      tokenActions.set(g.value.hex, l);
    }
  }
  const width = data.layout.width * R;
  const height = data.layout.height * R;
  const centre = new Map<string, [number, number]>(
    (data.hexes as Json[]).map((h) => [h.id, [h.center[0] * R, h.center[1] * R]]),
  );
  const routeColours = ["#e4007c", "#00a0e4", "#ff7f00", "#6a00d4", "#008f3a", "#c40000"];
  const sel = selected && (lays.has(selected) || tokenActions.has(selected)) ? selected : undefined;
  return (
    <div class="map1841">
      {sel && (
        <div class="choices" data-testid="hex-choices">
          <h4>
            {sel}: {(data.hexes as Json[]).find((h) => h.id === sel)?.location ?? ""}
            <button class="link" onClick={() => setSelected(undefined)}>
              close
            </button>
          </h4>
          <div class="tile-options">
            {(lays.get(sel) ?? []).map((o) => (
              <button
                key={`${o.tile}-${o.rotation}`}
                class="tile-option"
                data-lay={`${o.tile}-${o.rotation}`}
                title={`tile ${o.tile}, rotation ${o.rotation}`}
                onClick={() => {
                  setSelected(undefined);
                  props.onAct(o.action);
                }}
              >
                <svg viewBox={`${-R} ${-R} ${2 * R} ${2 * R}`} width={64} height={64}>
                  <polygon points={corners()} fill={HEX_FILL[tiles.get(o.tile)?.color] ?? "#eee"} stroke="#555" />
                  <Track nodes={tiles.get(o.tile)?.nodes ?? []} paths={tiles.get(o.tile)?.paths ?? []} rotation={o.rotation} small />
                </svg>
                <span>
                  #{o.tile} r{o.rotation}
                </span>
              </button>
            ))}
            {(tokenActions.get(sel) ?? []).map((a, i) => {
              const g = a.action.value as Json;
              return (
                <button key={`t${i}`} data-token-action={`${sel}-${g.action.value.city}`} onClick={() => props.onAct(a)}>
                  Place token in city {g.action.value.city}
                </button>
              );
            })}
          </div>
        </div>
      )}
      <svg
        class="board"
        data-testid="map-1841"
        viewBox={`0 0 ${width.toFixed(0)} ${height.toFixed(0)}`}
        width={width}
        height={height}
      >
        {(data.hexes as Json[]).map((h) => {
          const [cx, cy] = centre.get(h.id)!;
          const placed = laid.get(h.id);
          const tile = placed ? tiles.get(placed.tile) : undefined;
          const colour = tile ? tile.color : h.color;
          const playable = lays.has(h.id) || tokenActions.has(h.id);
          const cost = (h.terrain_cost as Json[]).reduce((s: number, c: Json) => s + c.cost, 0);
          return (
            <g
              key={h.id}
              data-hex={h.id}
              data-tile={placed?.tile ?? ""}
              data-rotation={placed ? String(placed.rotation) : ""}
              class={`hex${playable ? " playable" : ""}${sel === h.id ? " selected" : ""}`}
              transform={`translate(${cx.toFixed(1)},${cy.toFixed(1)})`}
              onClick={() => setSelected(h.id)}
            >
              <polygon points={corners()} fill={HEX_FILL[colour] ?? "#eee"} stroke="#777" stroke-width={0.8} />
              {tile ? (
                <Track nodes={tile.nodes} paths={tile.paths} rotation={placed!.rotation} tokens={tokens.get(h.id)} />
              ) : (
                <Track nodes={h.nodes} paths={h.paths} rotation={0} tokens={tokens.get(h.id)} />
              )}
              {h.location && (
                <text y={-R * 0.62} font-size={6.5} text-anchor="middle" fill="#222">
                  {String(h.location).slice(0, 18)}
                </text>
              )}
              <text y={R * 0.8} font-size={6} text-anchor="middle" fill="#555">
                {h.id}
                {tile ? ` #${tile.id}` : ""}
              </text>
              {!tile && cost > 0 && (
                <text x={-R * 0.55} y={R * 0.45} font-size={6.5} fill="#7a3b00">
                  L.{cost}
                </text>
              )}
              {playable && <polygon class="hl" points={corners(R - 2)} fill="none" />}
            </g>
          );
        })}
        {(props.lastRoutes ?? []).map((r, i) => {
          const pts = r.stops.map((s) => centre.get(s.hex)).filter((p): p is [number, number] => !!p);
          return (
            <polyline
              key={i}
              data-route={r.train}
              points={pts.map((p) => p.join(",")).join(" ")}
              fill="none"
              stroke={routeColours[i % routeColours.length]}
              stroke-width={4}
              stroke-opacity={0.75}
              stroke-dasharray="8 4"
            />
          );
        })}
      </svg>
    </div>
  );
}

const MARKET_FILL: Record<string, string> = { p: "#cfe8c8", x: "#b9d7f0", m: "#f3d9a4", n: "#f0c0b0", e: "#e38b8b" };

/** The stock market grid with a marker per corporation at its share price. */
export function Market1841(props: { data: Json; state: g1841pb.State }) {
  const colours = corpColours(props.data);
  const at = new Map<string, string[]>();
  for (const c of props.state.corporations) {
    const p = c.sharePrice;
    if (!p || !c.started || c.closed) continue;
    const k = `${p.row},${p.col}`;
    at.set(k, [...(at.get(k) ?? []), c.sym]);
  }
  const rows = props.data.market.rows as Json[][];
  return (
    <table class="market" data-testid="market">
      <tbody>
        {rows.map((row, r) => (
          <tr key={r}>
            {row.map((cell: Json, c: number) => (
              <td
                key={c}
                style={{ background: cell ? MARKET_FILL[(cell.types ?? [])[0]] ?? "#f6f3ea" : "transparent" }}
                data-cell={`${r},${c}`}
              >
                {cell && <span class="price">{cell.price}</span>}
                {(at.get(`${r},${c}`) ?? []).map((sym) => {
                  const col = colours.get(sym);
                  return (
                    <span
                      key={sym}
                      class="marker"
                      data-corp={sym}
                      style={{ background: cssColour(col?.color), color: cssColour(col?.text) }}
                    >
                      {sym}
                    </span>
                  );
                })}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function money(v: bigint | number) {
  return `L.${String(v)}`;
}

/** Corporations (cash, price, trains, certificates) and players (cash, concessions, certificates). */
export function Tables1841(props: { data: Json; state: g1841pb.State; names: string[] }) {
  const { state } = props;
  const colours = corpColours(props.data);
  const trains = new Map<string, string[]>((state.operations?.trains ?? []).map((t) => [t.corporation, t.trains]));
  const started = state.corporations.filter((c) => c.started && !c.closed);
  const holdings = (seat: number) => {
    const by = new Map<string, number>();
    for (const c of state.corporations) {
      for (const cert of c.certificates) {
        // SHARE_HOLDER_KIND_PLAYER = 3
        if (cert.holder === 3 && cert.seat === seat) by.set(c.sym, (by.get(c.sym) ?? 0) + cert.percent);
      }
    }
    return [...by].map(([k, v]) => `${k} ${v}%`).join(", ");
  };
  return (
    <div class="tables">
      <table class="corps" data-testid="corporations">
        <thead>
          <tr>
            <th>corporation</th>
            <th>kind</th>
            <th>cash</th>
            <th>price</th>
            <th>trains</th>
            <th>tokens</th>
            <th>president</th>
            <th>IPO / pool</th>
          </tr>
        </thead>
        <tbody>
          {started.map((c) => {
            const col = colours.get(c.sym);
            return (
              <tr key={c.sym} data-corp-row={c.sym}>
                <td>
                  <span class="chip" style={{ background: cssColour(col?.color), color: cssColour(col?.text) }}>
                    {c.sym}
                  </span>
                </td>
                <td>{c.kind === 1 ? "major" : "minor"}</td>
                <td data-cash>{money(c.cash)}</td>
                <td>{c.sharePrice ? money(c.sharePrice.price) : "—"}</td>
                <td>{(trains.get(c.sym) ?? []).join(" ") || "—"}</td>
                <td>
                  {c.tokens.length}/{c.tokensTotal}
                </td>
                <td>{president(c, props.names)}</td>
                <td>
                  {percent(c, 1)}% / {percent(c, 2)}%
                </td>
              </tr>
            );
          })}
          {started.length === 0 && (
            <tr>
              <td colSpan={8}>no corporation started yet</td>
            </tr>
          )}
        </tbody>
      </table>
      <table class="players" data-testid="players">
        <thead>
          <tr>
            <th>player</th>
            <th>cash</th>
            <th>concessions</th>
            <th>certificates</th>
          </tr>
        </thead>
        <tbody>
          {state.players.map((p) => (
            <tr key={p.seat} data-player={p.seat}>
              <td>{props.names[p.seat] ?? `Seat ${p.seat}`}</td>
              <td data-cash>{money(p.cash)}</td>
              <td>{p.concessions.join(", ")}</td>
              <td>{holdings(p.seat)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p class="meta">
        Phase {state.phase} · bank {money(state.bankCash)} · {roundText(state)}
      </p>
    </div>
  );
}

// Certificate holders: SHARE_HOLDER_KIND_IPO = 1, _POOL = 2, _PLAYER = 3, _CORPORATION = 4.
function percent(c: g1841pb.Corporation, holder: number): number {
  return c.certificates.filter((x) => x.holder === holder).reduce((s, x) => s + x.percent, 0);
}

function president(c: g1841pb.Corporation, names: string[]): string {
  const p = c.certificates.find((x) => x.president);
  if (!p) return "—";
  if (p.holder === 3) return names[p.seat] ?? `Seat ${p.seat}`;
  if (p.holder === 4) return p.corporation;
  return "—";
}

export function roundText(state: g1841pb.State): string {
  const r = state.round;
  if (r.case === "concessionRound") return "concession round";
  if (r.case === "stockRound") return "stock round";
  if (r.case === "operatingRound") return `operating round ${r.value.number} of ${r.value.total}${r.value.current ? ` — ${r.value.current}` : ""}`;
  return "";
}

/** The routes of the last RunRoutes in the log (drawn on the map). */
export function lastRoutes(log: Entry[]): g1841pb.Route[] {
  for (let i = log.length - 1; i >= Math.max(0, log.length - 12); i--) {
    const a = log[i].action.action;
    if (a.case === "g1841" && a.value.action.case === "runRoutes") return a.value.action.value.routes;
  }
  return [];
}

/** A RunRoutes action from SuggestRoutes' answer. */
export function runRoutesAction(routes: g1841pb.Route[]): Action {
  return create(ActionSchema, { action: { case: "g1841", value: { action: { case: "runRoutes", value: { routes } } } } });
}

export type { JSX };
