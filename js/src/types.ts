/** The data Python sends (see milligan_widget/view.py). */

export interface FoundationView {
  suit: Suit;
  top: string | null;
  n: number;
}

export interface MoveView {
  source: string;
  target: string | null;
  count: number;
  targets: string[];
  text: string;
}

export interface LastMove {
  source: string;
  targets: string[];
  cards: string[];
  /** Columns ("t3") where a face-down card turned up as part of this move: animate the flip. */
  turned: string[];
}

/** The message's kind: play ("info" … "lost") and a lesson's feedback ("correct" … "illegal"). */
export type Kind =
  | "info"
  | "error"
  | "hint"
  | "thinking"
  | "won"
  | "lost"
  | "correct"
  | "done"
  | "wrong"
  | "illegal";

/** Kinds that mean "refused, nothing changed": a dropped card springs back. */
export function isRefusal(kind: Kind): boolean {
  return kind === "error" || kind === "wrong" || kind === "illegal";
}

export type Mode = "play" | "lesson" | "replay";

/** The lesson's state (LessonRun.summary() in milligan_widget/lessons.py). */
export interface LessonView {
  lesson: string;
  index: number;
  count: number;
  title: string;
  prompt: string;
  moves_done: number;
  moves_total: number | null;
  step_done: boolean;
  lesson_done: boolean;
  completed: number[];
}

export interface ReplayView {
  ply: number;
  count: number;
}

/** What a mode's panel shows that does not change from one move to the next. */
export type Panel =
  | { mode: "play" }
  | { mode: "lesson"; title: string; intro: string; steps: string[] }
  | {
      mode: "replay";
      title: string;
      moves: { text: string; comment: string | null }[];
      /** Why the cards cannot be moved here: shown when the player tries. */
      refusal: string;
    };

export interface GameView {
  rev: number;
  /** Each column's face-up cards, bottom to top (never a face-down card). */
  columns: string[][];
  /** How many face-down cards lie under columns[i]: draw that many backs first. */
  down: number[];
  /** The index in columns[i] of the lowest card that may be picked up with those on it. */
  runs: number[];
  foundations: FoundationView[];
  stock: number;
  can_deal: boolean;
  reserve: string[] | null;
  reserve_open: boolean;
  reserve_run: number;
  cells: (string | null)[];
  targets: Record<string, string[]>;
  stats: Record<StatName, number>;
  status: "playing" | "won" | "lost";
  can_undo: boolean;
  can_redo: boolean;
  seed: number | null;
  message: string;
  kind: Kind;
  last: LastMove | null;
  hint: MoveView | null;
  elapsed: number | null;
  mode: Mode;
  /** What Stop stops: the solver's solution playing back, or Think longer. */
  busy: "solution" | "think" | "review" | null;
  /** Peek: the help may use the hidden cards (the solver's); false: fair play, honest help. */
  peek: boolean;
  /** The live coach is on: each move of the player's game is judged as it is played. */
  coach: boolean;
  /** The toolbar's actions that do something now (milligan_widget/widget/modes.py). */
  actions: string[];
  lesson?: LessonView;
  replay?: ReplayView;
  /** Play mode: Finish plays every card left home. */
  can_finish?: boolean;
  /** Play mode, a game won: the streak of wins it extends. */
  streak?: number | null;
  /** Play mode: the offer to take up the game auto-saved before, in words. */
  resume?: string | null;
  /** What the shipped table of deals says of the deal on show (view.py, deal_about); null
   * for a deal it does not hold. */
  deal: DealAbout | null;
}

/** The deal's difficulty band, for the status bar (milligan_widget/widget/view.py). */
export interface DealAbout {
  /** The deal's band among its preset's solver-won deals, measured offline on the whole deal
   * (how far a greedy player gets on it); null where the preset has no bands. */
  difficulty: "easy" | "medium" | "hard" | null;
  /** The verdict of the solver that knows the stock: sent only with Peek on or for a deal asked
   * for as won ("winnable", "easy", "medium", "hard"); else null. */
  solver: "winnable" | "unwinnable" | "unknown" | null;
  /** What the status bar shows ("Hard deal"), and the longer why. */
  text: string;
  title: string;
}

/** One choice of New game's difficulty select. */
export interface DifficultyChoice {
  value: "any" | "winnable" | "easy" | "medium" | "hard";
  label: string;
}

/** One preset's line of the Statistics panel (milligan_widget/stats.py, PresetSummary). */
export interface PresetStats {
  preset: string;
  played: number;
  won: number;
  win_rate: number | null;
  win_rate_low: number | null;
  win_rate_high: number | null;
  current_streak: number;
  best_streak: number;
  best_time: number | null;
  fewest_moves: number | null;
  /** Games played with Peek on at some time, and those won. */
  peeked: number;
  won_peeking: number;
  coached?: number;
  won_coached?: number;
}

export interface RecentGame {
  deal: string;
  preset: string;
  result: "won" | "lost" | "abandoned";
  moves: number;
  seconds: number;
  ended: string;
  /** Played with Peek on at some time. */
  peek: boolean;
  /** Played with the live coach on. */
  coached?: boolean;
}

/** The Statistics panel's data (the ``statistics`` trait): no deck in it. */
export interface StatisticsView {
  rev?: number;
  problem: string | null;
  played: number;
  presets: PresetStats[];
  recent: RecentGame[];
}

/** One save file the Open panel lists (milligan_widget/widget/files.py). */
export interface SaveEntry {
  name: string;
  deal: number | null;
  rules: string;
  moves: number;
  status: "playing" | "won" | "lost";
  date: string;
}

export interface FilesView {
  rev?: number;
  folder?: string;
  entries?: SaveEntry[];
}

export interface RulesInfo {
  name: string | null;
  title: string;
  lines: string[];
  columns: number;
  foundations: number;
  reserve: "sequence" | "single" | "none";
  cells: number;
  /** "face-down": columns start with face-down cards (Milligan Harp, Yukon). */
  deal: "open" | "face-down";
  /** "groups": any face-up card may be dragged with the cards on it (Yukon). */
  moves: "runs" | "groups";
  presets: string[];
  /** Per preset, the difficulties New game offers (all offer "any"). */
  difficulties: Record<string, DifficultyChoice[]>;
}

/** The solver's verdict on the position on show, from the "still winnable?" indicator or
 * Think longer (state null: nothing to show). */
export interface Analysis {
  /** The "still winnable?" indicator is on. */
  enabled: boolean;
  /** "chance": fair play's verdict, the chance to win from what the player sees, in `why`. */
  state: "checking" | "winnable" | "unwinnable" | "unknown" | "won" | "chance" | null;
  /** Why, in a player's words: "the solver found a win in 150 moves", the card trapped for
   * good, "no answer within 3 s", "thinking… 12 s, 130,000 positions" ("" with no state). */
  why: string;
  /** Think longer is offered: the solver found no answer in the time it had. */
  can_think: boolean;
  /** The live coach on the last move (milligan_widget/analysis/judge.py): its judgement, or
   * that it is being judged; null with the coach off or before the first move. */
  coach?: CoachView | null;
}

/** The coach's judgement of the last move (or `state: "judging"` until it comes). */
export interface CoachView {
  state?: "judging";
  ply: number;
  move: string;
  label?: "best" | "good" | "inaccuracy" | "mistake" | "blunder";
  /** In a player's words: "Blunder: dealing a row leaves 0 of 8 sampled stocks winnable; 1>f kept 8". */
  words?: string;
  /** The better move (notation), for an inaccuracy or worse; Show lights it. */
  better?: string | null;
}

/** One move of the game review (milligan_widget/widget/assistant/review.py): the position
 * before move `ply + 1`, its verdict (the solver, which knows the stock) and honest chance. */
export interface ReviewEntryView {
  ply: number;
  move: string;
  verdict: "winnable" | "unwinnable" | "unknown";
  chance: { p: number; low: number; high: number; text: string } | null;
  mistake: string | null;
  /** The point's words (analysis/chart.py point_words). */
  words: string;
}

/** How much a flagged move cost, the least first (analysis/review.py SEVERITY). */
export type FlagLabel = "inaccuracy" | "mistake" | "blunder";

/** A move the review flags (analysis/review.py Flag): in the position before move `ply + 1`. */
export interface ReviewFlag {
  ply: number;
  move: string;
  label: FlagLabel;
  /** "Blunder: after it … finds no win. Better: 4>7 (10♣ from column 4 onto J♥ in column 7)." */
  words: string;
  better: string | null;
}

/** The game review in the replay viewer (the `game_review` trait; state null: none). */
export interface ReviewData {
  state: "running" | "done" | "stopped" | "failed" | null;
  done?: number;
  total?: number;
  progress?: string;
  caption?: string;
  entries: ReviewEntryView[];
  final_verdict?: string;
  turning_point?: number | null;
  turning_words?: string;
  mistakes?: { ply: number; words: string }[];
  flags?: ReviewFlag[];
  /** The flagged plies as the chart draws them: one mark per group (analysis/chart.py flag_groups). */
  flag_groups?: number[][];
  deals?: number[];
}

export interface Model {
  view: GameView;
  analysis: Analysis;
  rules_info: RulesInfo;
  panel: Panel;
  four_colour: boolean;
  statistics: StatisticsView | Record<string, never>;
  files: FilesView;
  game_review: ReviewData;
  /** "auto" follows the host (JupyterLab, VS Code, marimo, the browser). */
  theme: "auto" | "light" | "dark";
}

export type Suit = "C" | "S" | "H" | "D";
export type StatName = "foundations" | "stock" | "reserve" | "tableau" | "moves";

/** A pick-up: `count` cards from the end of pile `source`. */
export interface Grab {
  source: string;
  count: number;
}

/** Every request the front end may send; one per player action. */
export type Request =
  | { type: "move"; source: string; target: string; count: number }
  | { type: "deal" | "undo" | "redo" | "hint" | "auto" | "restart" | "finish" }
  | { type: "stats" | "save" | "files" }
  | { type: "open"; name: string }
  | { type: "resume"; on: boolean }
  | { type: "next" | "previous" | "close" }
  | { type: "goto_step"; index: number }
  | { type: "solution" | "stop" | "think" | "review" }
  | { type: "winnable" | "peek" | "coach"; on: boolean }
  | { type: "better" | "hold" }
  | { type: "seek"; ply: number }
  | { type: "new"; seed: string | null; rules: string | null; difficulty: string | null };
