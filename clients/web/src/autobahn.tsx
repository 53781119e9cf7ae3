// Autobahn: the board (cities, countries, links with their sections — unbuilt, single lane, two
// lanes —, station spaces, trucks), offices with employees, and the players (DM, hand, action
// spaces, trucks, deliveries, departments). Positions come from GetGameData (the engine's board
// and its derived section positions); everything that changes from the seat's View.
import type { Action, autobahnpb } from "@referee/client";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

export const PLAYER_COLOURS = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#8c564b"];

/** The ids an action points at on the board (sections, links, station spaces, cities). */
export function actionTargets(a: Action): string[] {
  if (a.action.case !== "autobahn") return [];
  const x = a.action.value.action;
  switch (x.case) {
    case "playCard":
      return [x.value.target].filter(Boolean);
    case "buildRoad":
      return [x.value.section];
    case "upgradeLink":
      return [x.value.link];
    case "buildStation":
      return [x.value.space];
    case "moveTruck":
      return x.value.path.length ? [x.value.path[x.value.path.length - 1]] : [];
    default:
      return [];
  }
}

/** The ids a click on a board element selects: the element, its link, its station space. */
export function selectionIds(data: Json, id: string): Set<string> {
  const ids = new Set([id]);
  for (const l of data.board.links as Json[]) {
    for (const s of l.sections as Json[]) {
      if (s.id === id) {
        ids.add(l.id);
        if (s.station_space) ids.add(s.station_space);
      }
    }
  }
  return ids;
}

export function BoardAutobahn(props: {
  data: Json;
  state: autobahnpb.State;
  legal?: Legal;
  selected?: string;
  onSelect: (id: string) => void;
}) {
  const { data, state } = props;
  const pos = data.positions;
  const colour = new Map<string, string>((data.board.autobahns as Json[]).map((a) => [a.id, a.hex]));
  const sections = new Map<string, autobahnpb.Section>(state.sections.map((s) => [s.id, s]));
  const links = new Map<string, autobahnpb.Link>(state.links.map((l) => [l.id, l]));
  const stations = new Map<string, autobahnpb.StationSpace>(state.stationSpaces.map((s) => [s.section, s]));
  const values = new Map<string, bigint>(state.cityValues.map((c) => [c.city, c.value]));
  const targets = new Set<string>();
  for (const a of props.legal?.actions ?? []) for (const t of actionTargets(a)) targets.add(t);
  const nodePos = (id: string): [number, number] | undefined => {
    const p = pos.cities[id] ?? pos.countries[id] ?? pos.countries[commercialOf(data, id) ?? ""];
    return p ? [p.x, p.y] : undefined;
  };
  const selIds = props.selected ? selectionIds(data, props.selected) : new Set<string>();
  const trucks: Array<{ player: number; at: string; goods?: string; i: number }> = [];
  state.players.forEach((p, pi) =>
    p.trucks.forEach((t, i) => {
      if (t.location === 2 || t.location === 3) trucks.push({ player: pi, at: t.at, goods: t.goods, i });
    }),
  );
  const W = 1000;
  const H = data.layout.height;
  return (
    <svg class="board" data-testid="board-autobahn" viewBox={`0 0 ${W} ${H}`} width={W * 0.8} height={H * 0.8}>
      <rect x={0} y={0} width={W} height={H} fill="#eef1e6" />
      {(data.board.links as Json[]).map((l) => {
        const a = nodePos(l.a);
        const b = nodePos(l.b);
        if (!a || !b) return null;
        const live = links.get(l.id);
        const n = l.sections.length;
        const c = colour.get(l.autobahn) ?? "#444";
        return (
          <g key={l.id} data-link={l.id} data-upgraded={live?.upgraded ? "1" : "0"}>
            {(l.sections as Json[]).map((s, i) => {
              const f0 = i / n + 0.08 / n;
              const f1 = (i + 1) / n - 0.08 / n;
              const x1 = a[0] + (b[0] - a[0]) * f0;
              const y1 = a[1] + (b[1] - a[1]) * f0;
              const x2 = a[0] + (b[0] - a[0]) * f1;
              const y2 = a[1] + (b[1] - a[1]) * f1;
              const sec = sections.get(s.id);
              const road = sec?.road ?? 1;
              const isTarget = targets.has(s.id) || targets.has(l.id) || (s.station_space && targets.has(s.station_space));
              const selected = selIds.has(s.id);
              const st = stations.get(s.id);
              const p = pos.sections[s.id];
              return (
                <g
                  key={s.id}
                  data-section={s.id}
                  data-road={String(road)}
                  class={`section${isTarget ? " playable" : ""}${selected ? " selected" : ""}`}
                  onClick={() => props.onSelect(s.id)}
                >
                  <line x1={x1} y1={y1} x2={x2} y2={y2} stroke="transparent" stroke-width={18} />
                  {road === 1 && (
                    <line x1={x1} y1={y1} x2={x2} y2={y2} stroke={c} stroke-opacity={0.35} stroke-width={3} stroke-dasharray="4 3" />
                  )}
                  {road === 2 && <line x1={x1} y1={y1} x2={x2} y2={y2} stroke={c} stroke-width={6} stroke-linecap="round" />}
                  {road === 3 && (
                    <g>
                      <line x1={x1} y1={y1} x2={x2} y2={y2} stroke={c} stroke-width={11} stroke-linecap="round" />
                      <line x1={x1} y1={y1} x2={x2} y2={y2} stroke="#fff" stroke-width={1.5} />
                    </g>
                  )}
                  {c === "#eee" && road !== 1 && (
                    <line x1={x1} y1={y1} x2={x2} y2={y2} stroke="#999" stroke-width={1} />
                  )}
                  {(isTarget || selected) && (
                    <circle cx={p.x} cy={p.y} r={selected ? 9 : 6} fill="none" stroke={selected ? "#000" : "#ff7f00"} stroke-width={2} />
                  )}
                  {sec?.bonusTile && <rect x={p.x - 4} y={p.y - 4} width={8} height={8} fill="#ffd54a" stroke="#7a5c00" />}
                  {st && (
                    <circle
                      cx={p.x + 7}
                      cy={p.y - 7}
                      r={4}
                      fill={st.owner !== undefined ? PLAYER_COLOURS[st.owner % PLAYER_COLOURS.length] : "#fff"}
                      stroke="#333"
                      data-station={st.id}
                    />
                  )}
                </g>
              );
            })}
          </g>
        );
      })}
      {(data.board.countries as Json[]).map((c) => {
        const p = pos.countries[c.id];
        return (
          <g key={c.id} data-country={c.id} transform={`translate(${p.x},${p.y})`}>
            <rect x={-34} y={-11} width={68} height={22} rx={3} fill="#fff" stroke="#333" />
            <text y={-1} font-size={8} text-anchor="middle" font-weight="bold">
              {c.name}
            </text>
            <text y={8} font-size={7} text-anchor="middle">
              {c.commercial_city_name}
            </text>
          </g>
        );
      })}
      {(data.board.cities as Json[]).map((c) => {
        const p = pos.cities[c.id];
        const v = values.get(c.id);
        return (
          <g
            key={c.id}
            data-city={c.id}
            class={targets.has(c.id) ? "playable" : ""}
            transform={`translate(${p.x},${p.y})`}
            onClick={() => props.onSelect(c.id)}
          >
            <circle r={7} fill={c.region === "east" ? "#ddd" : "#fff"} stroke="#222" stroke-width={1.5} />
            <text x={9} y={-6} font-size={10} fill="#111">
              {c.name}
            </text>
            {v !== undefined && (
              <text y={3.5} font-size={8} text-anchor="middle" font-weight="bold">
                {String(v)}
              </text>
            )}
          </g>
        );
      })}
      {trucks.map((t) => {
        const p = pos.sections[t.at] ?? pos.cities[t.at];
        if (!p) return null;
        const dx = (t.player - 1.5) * 5;
        return (
          <g key={`${t.player}-${t.i}`} data-truck={`${t.player}-${t.i}`} transform={`translate(${p.x + dx},${p.y + 10})`}>
            <rect x={-6} y={-4} width={12} height={8} rx={2} fill={PLAYER_COLOURS[t.player % PLAYER_COLOURS.length]} stroke="#000" />
            {t.goods && <circle cx={0} cy={0} r={2} fill="#fff" />}
          </g>
        );
      })}
    </svg>
  );
}

function commercialOf(data: Json, id: string): string | undefined {
  return (data.board.countries as Json[]).find((c) => c.commercial_city === id)?.id;
}

type Legal = { actions: Action[] };

/** Offices: the employees seated in each Construction Office. */
export function Offices(props: { data: Json; state: autobahnpb.State; names: string[] }) {
  const colour = new Map<string, string>((props.data.board.autobahns as Json[]).map((a) => [a.id, a.hex]));
  return (
    <div class="offices" data-testid="offices">
      {props.state.offices.map((o) => (
        <div key={o.autobahn} class="office" data-office={o.autobahn}>
          <span class="chip" style={{ background: colour.get(o.autobahn), color: o.autobahn === "WHITE" || o.autobahn === "YELLOW" ? "#000" : "#fff" }}>
            {o.autobahn}
          </span>
          {Array.from({ length: o.capacity }, (_, i) => {
            const p = o.seats[i];
            return (
              <span
                key={i}
                class="seat"
                data-employee={p === undefined ? "" : String(p)}
                style={{ background: p === undefined ? "#fff" : PLAYER_COLOURS[p % PLAYER_COLOURS.length] }}
                title={p === undefined ? "free" : props.names[p]}
              />
            );
          })}
        </div>
      ))}
    </div>
  );
}

const TRUCK_AT = ["?", "reserve", "depot", "section"];

/** A row of a delivery board (GetGameData `board.delivery_boards`, ids from 1). */
function deliveryRow(data: Json, board: number, country: string): Json | undefined {
  const b = (data.board.delivery_boards as Json[]).find((x) => x.id === board);
  return b?.rows.find((r: Json) => r.country === country);
}

/** Players: DM, hand, action spaces, trucks, deliveries, administration. */
export function PlayersAutobahn(props: {
  data: Json;
  state: autobahnpb.State;
  names: string[];
  scores?: bigint[];
}) {
  return (
    <table class="players" data-testid="players">
      <thead>
        <tr>
          <th>player</th>
          <th>DM</th>
          <th>hand</th>
          <th>action spaces</th>
          <th>trucks</th>
          <th>deliveries</th>
          <th>lobby / reserve</th>
          {props.scores && <th>score</th>}
        </tr>
      </thead>
      <tbody>
        {props.state.players.map((p, i) => (
          <tr key={i} data-player={i}>
            <td>
              <span class="dot" style={{ background: PLAYER_COLOURS[i % PLAYER_COLOURS.length] }} />
              {p.seat !== undefined ? props.names[p.seat] ?? `Seat ${p.seat}` : "Autobot"}
            </td>
            <td data-dm>{String(p.dm)}</td>
            <td data-hand>{p.hand.length ? p.hand.join(" ") : `${p.hand.length} cards`}</td>
            <td>
              {p.actionSpaces
                .filter((s) => s.cards.length)
                .map((s) => `${s.id}: ${s.cards.join(" ")}`)
                .join("; ") || "—"}
            </td>
            <td>{p.trucks.map((t) => `${TRUCK_AT[t.location] ?? "?"}${t.at ? ` ${t.at}` : ""}${t.goods ? ` (${t.goods})` : ""}`).join(", ")}</td>
            <td class="deliveries" data-deliveries={p.deliveries.filter((d) => d.delivered).map((d) => d.country).join(",")}>
              {p.deliveries.map((d) => {
                const row = deliveryRow(props.data, p.deliveryBoard, d.country);
                return (
                  <span
                    key={d.country}
                    class={`delivery${d.delivered ? " done" : ""}`}
                    title={`${d.country}: ${row ? `${row.dm} DM, prefers ${row.preferred}` : ""}${d.delivered ? " — delivered" : ""}`}
                  >
                    {d.country}
                    {d.delivered ? "✓" : ""}
                  </span>
                );
              })}
            </td>
            <td>
              {p.lobby} / {p.reserve}
            </td>
            {props.scores && <td data-score>{String(props.scores[i] ?? "")}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function phaseText(state: autobahnpb.State): string {
  const ph = state.phase?.phase;
  const name = ph?.case === "trucks" ? `trucks (${ph.value.colour})` : ph?.case ?? "";
  return `Era ${state.era} · ${name} · display ${state.display.join(" ")}`;
}
