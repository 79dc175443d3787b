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
}

export type Kind = "info" | "error" | "hint" | "won" | "lost";

export interface GameView {
  rev: number;
  columns: string[][];
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
}

export interface RulesInfo {
  name: string | null;
  title: string;
  lines: string[];
  columns: number;
  foundations: number;
  reserve: "sequence" | "single" | "none";
  cells: number;
  presets: string[];
}

export interface Model {
  view: GameView;
  rules_info: RulesInfo;
  four_colour: boolean;
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
  | { type: "deal" | "undo" | "redo" | "hint" | "auto" | "restart" }
  | { type: "new"; seed: string | null; rules: string | null };
