// The reference web client: start a game of 1841 or Autobahn with any options, seats played by
// people at this screen (hot seat) or by the server's bots, play it to the end; undo, save/load,
// and watch an 18xx.games export move by move. The page talks gRPC-Web to the Referee server on
// its own origin (see README.md).
import { render } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import {
  createRefereeClient,
  describeAction,
  rejectionCodeName,
  type Action,
  type GameInfo,
  type RefereeClient,
  type g1841pb,
} from "@referee/client";
import { BoardAutobahn, Offices, PlayersAutobahn, actionTargets, phaseText, selectionIds } from "./autobahn";
import { Map1841, Market1841, Tables1841, lastRoutes, roundText, runRoutesAction } from "./g1841";
import {
  botPolicy,
  errorText,
  knownBotPolicy,
  importSession,
  loadSession,
  startSession,
  type SaveFile,
  type SealedSaveFile,
  type SeatKind,
  type Session,
  type Setup,
} from "./session";
import "./style.css";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const client: RefereeClient = createRefereeClient(window.location.origin);

function download(name: string, text: string) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  a.download = name;
  a.click();
  URL.revokeObjectURL(a.href);
}

/** The server's default request limit (`referee serve --max-request-bytes`). */
const SERVER_REQUEST_LIMIT = 4 * 1024 * 1024;

/**
 * Reads the chosen file. A file larger than the server's default request limit is refused here
 * with a message that says so: the server would answer 413 before reading it, which the
 * same-origin proxy reports only as "HTTP 500".
 */
async function readFile(input: HTMLInputElement | null): Promise<string> {
  const f = input?.files?.[0];
  if (!f) throw new Error("choose a file first");
  if (f.size > SERVER_REQUEST_LIMIT) {
    throw new Error(`${f.name} is ${(f.size / 1048576).toFixed(1)} MiB: the server accepts requests of at most 4 MiB (--max-request-bytes)`);
  }
  return f.text();
}

/** Parses a saved game file; what is not JSON is refused with a message (the page stays usable). */
function parseSave(text: string): SaveFile | SealedSaveFile {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new Error(`not a saved game of this page: the file is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const format = v !== null && typeof v === "object" ? (v as { format?: unknown }).format : undefined;
  if (format !== "referee-web-save/1" && format !== "referee-web-sealed/1") {
    throw new Error(`not a saved game of this page (format ${JSON.stringify(format) ?? "missing"})`);
  }
  return v as SaveFile | SealedSaveFile;
}

/** The start screen: game, options, seats and who plays them; load and import. */
function SetupForm(props: {
  games: GameInfo[];
  onStart: (s: Setup) => void;
  /** Reads and starts the chosen file; errors are shown by the caller. */
  onLoad: (read: () => Promise<SaveFile | SealedSaveFile>) => void;
  onImport: (read: () => Promise<string>) => void;
}) {
  const [game, setGame] = useState("1841");
  const info = props.games.find((g) => g.id === game);
  const [seats, setSeats] = useState(4);
  // Empty: a sealed server draws a secret seed (open mode: 0).
  const [seed, setSeed] = useState("");
  const [options, setOptions] = useState<Record<string, string>>({});
  const [kinds, setKinds] = useState<SeatKind[]>(["human", "bot", "bot", "bot", "bot", "bot", "bot", "bot"]);
  const min = info?.minPlayers ?? 1;
  const max = info?.maxPlayers ?? 8;
  const n = Math.min(Math.max(seats, min), max);
  const loadRef = useRef<HTMLInputElement>(null);
  const importRef = useRef<HTMLInputElement>(null);
  return (
    <form
      class="setup"
      data-testid="setup"
      onSubmit={(e) => {
        e.preventDefault();
        props.onStart({
          game,
          seats: n,
          options,
          seed: seed.trim() === "" ? undefined : Number(seed),
          kinds: kinds.slice(0, n),
          names: Array.from({ length: n }, (_, i) => `Seat ${i}${kinds[i] === "bot" ? " (bot)" : ""}`),
        });
      }}
    >
      <h2>New game</h2>
      <label>
        Game{" "}
        <select
          name="game"
          value={game}
          onChange={(e) => {
            setGame(e.currentTarget.value);
            setOptions({});
          }}
        >
          {props.games.map((g) => (
            <option key={g.id} value={g.id}>
              {g.displayName}
            </option>
          ))}
        </select>
      </label>
      <label>
        Seats{" "}
        <input name="seats" type="number" min={min} max={max} value={n} onInput={(e) => setSeats(Number(e.currentTarget.value))} />
      </label>
      <label>
        Seed{" "}
        <input
          name="seed"
          type="number"
          value={seed}
          placeholder="secret"
          title="Empty: a sealed server draws a secret seed (open mode: 0). A given seed makes the deck and every draw predictable."
          onInput={(e) => setSeed(e.currentTarget.value)}
        />
      </label>
      <fieldset>
        <legend>Who plays</legend>
        {Array.from({ length: n }, (_, i) => (
          <label key={i} class="seat-kind">
            Seat {i}{" "}
            <select
              name={`seat${i}`}
              value={kinds[i]}
              onChange={(e) => {
                const k = [...kinds];
                k[i] = e.currentTarget.value as SeatKind;
                setKinds(k);
              }}
            >
              <option value="human">person (hot seat)</option>
              <option value="bot">server bot{knownBotPolicy(game) ? ` (${knownBotPolicy(game)})` : ""}</option>
            </select>
          </label>
        ))}
      </fieldset>
      {info && info.options.length > 0 && (
        <fieldset class="options">
          <legend>Options</legend>
          {info.options.map((o) => (
              <label key={o.name} title={o.description}>
                {o.name}{" "}
                {o.name === "board" ? (
                  // Autobahn: a platform's own board definition file (docs/games/autobahn.md).
                  <input
                    type="file"
                    accept=".json"
                    name="opt-board"
                    onChange={async (e) => {
                      const text = e.currentTarget.files?.[0] ? await e.currentTarget.files[0].text() : "";
                      const next = { ...options };
                      if (text) next.board = text;
                      else delete next.board;
                      setOptions(next);
                    }}
                  />
                ) : o.type === 1 ? (
                  <select
                    name={`opt-${o.name}`}
                    value={options[o.name] ?? ""}
                    onChange={(e) => setOptions({ ...options, [o.name]: e.currentTarget.value })}
                  >
                    <option value="">default{o.defaultValue ? ` (${o.defaultValue})` : ""}</option>
                    <option value="true">on</option>
                    <option value="false">off</option>
                  </select>
                ) : (
                  <input
                    name={`opt-${o.name}`}
                    value={options[o.name] ?? ""}
                    placeholder={o.defaultValue}
                    onInput={(e) => setOptions({ ...options, [o.name]: e.currentTarget.value })}
                  />
                )}
              </label>
            ))}
        </fieldset>
      )}
      <button type="submit" data-testid="start">
        Start
      </button>
      <h2>Or</h2>
      <label>
        Load a saved game <input ref={loadRef} type="file" accept=".json" data-testid="load-file" />
      </label>
      <button type="button" data-testid="load" onClick={() => props.onLoad(async () => parseSave(await readFile(loadRef.current)))}>
        Load
      </button>
      <label>
        Watch an 18xx.games export of 1841 <input ref={importRef} type="file" accept=".json" data-testid="import-file" />
      </label>
      <button type="button" data-testid="import" onClick={() => props.onImport(() => readFile(importRef.current))}>
        Import
      </button>
    </form>
  );
}

/** Legal actions of the seat to act that are not chosen on the board (and those too, as a list). */
function ActionPanel(props: { s: Session; data: Json; selected?: string }) {
  const { s } = props;
  const legal = s.legal;
  const seat = s.actingSeat;
  const [amounts, setAmounts] = useState<Record<string, string>>({});
  const [routes, setRoutes] = useState<{ text: string; action: Action } | undefined>();
  useEffect(() => setRoutes(undefined), [s.state]);
  if (seat === undefined || !legal) return null;
  const game = s.setup.game;
  let actions = legal.actions;
  if (game === "1841") {
    // Tile lays and token placements are chosen on the map.
    actions = actions.filter((a) => {
      const c = a.action.case === "g1841" ? a.action.value.action.case : "";
      return c !== "layTile" && c !== "placeToken";
    });
  } else if (props.selected) {
    const ids = selectionIds(props.data, props.selected);
    actions = actions.filter((a) => actionTargets(a).some((t) => ids.has(t)));
  }
  const onMap = legal.actions.length - actions.length;
  const shown = actions.slice(0, 80);
  return (
    <div class="actions" data-testid="actions">
      <h3>
        {s.setup.names[seat]} to act
        {onMap > 0 && game === "1841" && <span class="hint"> · {onMap} tile lays / tokens: click a highlighted hex</span>}
        {game === "autobahn" && !props.selected && <span class="hint"> · click a highlighted section or city to filter</span>}
        {game === "autobahn" && props.selected && <span class="hint"> · at {props.selected}</span>}
      </h3>
      <div class="buttons">
        {shown.map((a, i) => (
          <button key={i} data-action={describeAction(a)} disabled={s.busy} onClick={() => void s.act(seat, a)}>
            {describeAction(a)}
          </button>
        ))}
        {actions.length > shown.length && <span>… {actions.length - shown.length} more (select on the board)</span>}
        {legal.ranges.map((r, i) => {
          const key = `${r.kind}:${r.target}`;
          return (
            <span key={`r${i}`} class="range">
              {r.kind} {r.target}{" "}
              <input
                type="number"
                min={String(r.min)}
                max={String(r.max)}
                value={amounts[key] ?? String(r.min)}
                data-range={key}
                onInput={(e) => setAmounts({ ...amounts, [key]: e.currentTarget.value })}
              />
              <button
                disabled={s.busy}
                onClick={() => {
                  try {
                    // Inside the try: BigInt refuses what is not an integer ("1e5", "2.5").
                    const v = BigInt(amounts[key] || String(r.min));
                    // An amount outside the range goes to the server all the same: its
                    // rejection names the rule (every range's action carries a `price`).
                    const a = r.action(r.min);
                    (a.action.value as Json).action.value.price = v;
                    void s.act(seat, a);
                  } catch (e) {
                    s.error = String(e);
                    s.onChange();
                  }
                }}
              >
                {r.kind} (L.{String(r.min)}–{String(r.max)})
              </button>
            </span>
          );
        })}
        {legal.blindBid && (
          <span class="range">
            sealed bids for {legal.blindBid.concessions.join(", ")}:{" "}
            <input
              placeholder={legal.blindBid.concessions.map(() => "0").join(",")}
              value={amounts.blind ?? ""}
              onInput={(e) => setAmounts({ ...amounts, blind: e.currentTarget.value })}
            />
            <button
              onClick={() => {
                try {
                  const parts = (amounts.blind ?? "").split(",").map((x) => BigInt(x.trim() || "0"));
                  while (parts.length < legal.blindBid!.concessions.length) parts.push(0n);
                  void s.act(seat, legal.blindBid!.action(parts));
                } catch (e) {
                  s.error = String(e);
                  s.onChange();
                }
              }}
            >
              submit bids
            </button>
          </span>
        )}
        {legal.routeTrains.length > 0 && (
          <span class="range">
            {routes ? (
              <button data-testid="run-routes" onClick={() => void s.act(seat, routes.action)}>
                {routes.text}
              </button>
            ) : (
              <button
                data-testid="suggest-routes"
                onClick={async () => {
                  const r = await s.client.suggestRoutes(s.state);
                  setRoutes({ text: `run the best routes (L.${String(r.revenue)})`, action: runRoutesAction(r.routes) });
                }}
              >
                find the best routes for {legal.routeTrains.join(", ")}
              </button>
            )}
          </span>
        )}
      </div>
    </div>
  );
}

function GameScreen(props: { s: Session; data: Json; onQuit: () => void }) {
  const { s, data } = props;
  const [selected, setSelected] = useState<string | undefined>();
  const view = s.view;
  const game = s.setup.game;
  const outcome = view?.outcome;
  const over = s.over;
  const logRef = useRef<HTMLOListElement>(null);
  useEffect(() => {
    logRef.current?.scrollTo(0, logRef.current.scrollHeight);
  }, [s.log.length]);
  useEffect(() => setSelected(undefined), [s.state]);
  const g1841 = view?.view.case === "g1841" ? (view.view.value.state as g1841pb.State | undefined) : undefined;
  const ab = view?.view.case === "autobahn" ? view.view.value.state : undefined;
  const viewerValue = typeof s.viewer === "number" ? String(s.viewer) : s.viewer;
  return (
    <div
      class="game"
      data-testid="game"
      data-game={game}
      data-actions={String(s.log.length)}
      data-over={over ? "1" : "0"}
      data-sealed={s.sealed ? "1" : "0"}
      data-at-screen={s.atScreen === undefined ? "" : String(s.atScreen)}
    >
      <header>
        <strong>{game === "1841" ? "1841" : "Autobahn"}</strong> · {s.setup.seats} seats · move {s.log.length}
        {s.sealed && (
          <span class="sealed" data-testid="sealed" title="The server runs in sealed mode: the page holds sealed tokens and each seat's credential, and draws only the view of the seat at the screen">
            {" "}
            · sealed{s.atScreen !== undefined && s.handOver === undefined ? ` · at the screen: ${s.setup.names[s.atScreen]}` : ""}
          </span>
        )}
        {s.setup.kinds.includes("bot") && <span class="meta" data-testid="header-bots"> · bots: {botPolicy(game)}</span>}
        {g1841 && <span> · {roundText(g1841)}</span>}
        {ab && <span> · {phaseText(ab)}</span>}
        {s.isImport && <span> · watching an import ({s.queue.length} moves left)</span>}
        <span class="spacer" />
        <label>
          View as{" "}
          <select
            data-testid="viewer"
            value={viewerValue}
            onChange={(e) => {
              const v = e.currentTarget.value;
              s.viewer = v === "auto" || v === "spectator" ? v : Number(v);
              void s.refresh();
            }}
          >
            <option value="auto">{s.sealed ? "the seat at the screen" : "seat to act (hot seat)"}</option>
            <option value="spectator">spectator</option>
            {/* Sealed mode: no other seat's view (the page holds none). */}
            {!s.sealed &&
              s.setup.names.map((n, i) => (
                <option key={i} value={String(i)}>
                  {n}
                </option>
              ))}
          </select>
        </label>
        {!s.isImport && (
          <>
            <label>
              <input
                type="checkbox"
                data-testid="autoplay"
                checked={s.autoplay}
                onChange={(e) => {
                  s.autoplay = e.currentTarget.checked;
                  void s.refresh();
                }}
              />{" "}
              bots play
            </label>
            <button data-testid="undo" disabled={!s.canUndo} onClick={() => void s.undo()}>
              Undo
            </button>
          </>
        )}
        {s.isImport && (
          <>
            <button data-testid="back" disabled={!s.canUndo} onClick={() => void s.stepBack()}>
              ◀ Back
            </button>
            <button data-testid="next" disabled={s.queue.length === 0} onClick={() => void s.step()}>
              Next ▶
            </button>
          </>
        )}
        <button
          data-testid="save"
          title={s.sealed ? "The file holds the sealed position and every seat's credential: whoever has it can play every seat" : "The setup and the moves"}
          onClick={() => download(`referee-${game}-${s.log.length}${s.sealed ? "-sealed" : ""}.json`, JSON.stringify(s.save(), null, 1))}
        >
          Save
        </button>
        <button onClick={props.onQuit}>New game</button>
      </header>
      {s.error && <div class="error" data-testid="error">{s.error}</div>}
      {s.rejection && (
        <div class="rejection" data-testid="rejection">
          Refused: {s.rejection.text} — {s.rejection.message} ({rejectionCodeName(s.rejection.code)}; rule {s.rejection.rule})
        </div>
      )}
      {over && outcome && (
        <div class="outcome" data-testid="outcome">
          Game over{outcome.endReason ? ` (${outcome.endReason})` : ""}:{" "}
          {outcome.scores.map((sc, i) => `${s.setup.names[i]} ${String(sc)} (rank ${outcome.ranks[i] ?? "?"})`).join(" · ")}
        </div>
      )}
      {s.handOver !== undefined ? (
        <HandOver s={s} seat={s.handOver} />
      ) : (
      <div class="main">
        <div class="left">
          {/* A fresh panel (empty amount fields) when the seat to act changes or acts; not when another
              seat's move lands meanwhile (1841 Version 1: a bot bids while the person types). */}
          <ActionPanel
            key={`${s.actingSeat ?? "-"}:${s.log.filter((e) => e.seat === s.actingSeat).length}`}
            s={s}
            data={data}
            selected={selected}
          />
          {g1841 && <Map1841 data={data} state={g1841} legal={s.legal} lastRoutes={lastRoutes(s.log)} onAct={(a) => s.actingSeat !== undefined && void s.act(s.actingSeat, a)} />}
          {ab && <BoardAutobahn data={data} state={ab} legal={s.legal} selected={selected} onSelect={setSelected} />}
        </div>
        <div class="right">
          {g1841 && (
            <>
              <SealedBids state={g1841} names={s.setup.names} />
              <Tables1841 data={data} state={g1841} names={s.setup.names} />
              <Market1841 data={data} state={g1841} />
            </>
          )}
          {ab && (
            <>
              <PlayersAutobahn data={data} state={ab} names={s.setup.names} scores={over ? outcome?.scores : undefined} />
              <Offices data={data} state={ab} names={s.setup.names} />
            </>
          )}
          <h3>Log</h3>
          <ol class="log" data-testid="log" ref={logRef}>
            {s.log.map((e, i) => (
              <li key={i}>{e.text}</li>
            ))}
          </ol>
        </div>
      </div>
      )}
    </div>
  );
}

/**
 * Sealed hot seat: between two people, nothing of the game is drawn until the next one takes
 * the screen (the page then asks for that seat's view with that seat's credential).
 */
function HandOver(props: { s: Session; seat: number }) {
  const { s, seat } = props;
  return (
    <div class="handover" data-testid="handover" data-seat={String(seat)}>
      <h2>Pass the screen to {s.setup.names[seat]}</h2>
      <p>
        {s.atScreen !== undefined ? `${s.setup.names[s.atScreen]}'s turn is over. ` : ""}
        The board stays hidden until {s.setup.names[seat]} is at the screen: each seat sees only its own view.
      </p>
      <button data-testid="take-seat" onClick={() => void s.takeSeat()}>
        I am {s.setup.names[seat]}: show my view
      </button>
    </div>
  );
}

/** 1841 Version 1: who has submitted a sealed bid; amounts where the view shows them (own, or revealed). */
function SealedBids(props: { state: g1841pb.State; names: string[] }) {
  const r = props.state.round;
  if (r.case !== "concessionRound" || r.value.sealedBids.length === 0) return null;
  const remaining = r.value.remaining;
  return (
    <div data-testid="sealed-bids">
      <h3>Sealed bids</h3>
      <table>
        <tbody>
          {r.value.sealedBids.map((b) => (
            <tr key={b.seat} data-seat={String(b.seat)}>
              <td>{props.names[b.seat]}</td>
              <td data-bid>
                {!b.submitted
                  ? "not yet"
                  : b.amounts.length === 0
                    ? "submitted (secret)"
                    : b.amounts
                        .map((a, i) => (a > 0n ? `${remaining.length === b.amounts.length ? remaining[i] : `#${i + 1}`} L.${String(a)}` : ""))
                        .filter(Boolean)
                        .join(", ") || "no bids"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function App() {
  const [games, setGames] = useState<GameInfo[]>([]);
  const [session, setSession] = useState<Session | undefined>();
  const [data, setData] = useState<Json>();
  const [error, setError] = useState("");
  const [, setTick] = useState(0);
  const tick = () => setTick((x) => x + 1);
  useEffect(() => {
    client.listGames().then(setGames, (e) => setError(`cannot reach the Referee server: ${errorText(e)}`));
  }, []);
  const begin = async (make: () => Promise<Session>) => {
    setError("");
    try {
      session?.stop();
      const s = await make();
      const gd = await client.gameData(s.setup.game, s.setup.options);
      setData(gd.data);
      setSession(s);
      (window as Json).refereeSession = s; // for the browser tests and the console
    } catch (e) {
      setError(errorText(e));
    }
  };
  const content =
    session && data ? (
      <GameScreen
        s={session}
        data={data}
        onQuit={() => {
          session.stop();
          setSession(undefined);
        }}
      />
    ) : (
      <SetupForm
        games={games}
        onStart={(setup) => void begin(() => startSession(client, setup, tick))}
        onLoad={(read) => void begin(async () => loadSession(client, await read(), tick))}
        onImport={(read) => void begin(async () => importSession(client, await read(), tick))}
      />
    );
  return (
    <div>
      <h1>Referee</h1>
      {error && <div class="error" data-testid="error">{error}</div>}
      {content}
    </div>
  );
}

render(<App />, document.getElementById("app")!);
