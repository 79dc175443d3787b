/** The review's chart: the honest chance over the moves, drawn as SVG (no plotting library).
 *
 * It mirrors milligan_widget/analysis/chart.py: the chance as a line with its 95% interval as
 * a band, under it a strip with the verdict of the solver (which knows the stock: winnable
 * solid, unwinnable hatched, unknown dotted), the deals as ticks, the turning point as a
 * dashed line, the flagged moves as triangles along the top (a blunder large, a mistake
 * filled, an inaccuracy hollow; the groups Python made of marks that would touch drawn as
 * one, with their count), and a marker at the ply on show. Every point is a
 * `g.mm-point[data-ply]` with a title; a click (or, the chart focused, an arrow key) asks
 * Python to show that position ({type: "seek", ply}); a click on a group of flags goes to
 * its first move, and again to the next. Colours come from the widget's CSS variables
 * (styles.css), so light and dark follow the widget's theme. */
import type { FlagLabel, Request, ReviewData, ReviewEntryView, ReviewFlag } from "./types";

const NS = "http://www.w3.org/2000/svg";
const WIDTH = 720;
const LEFT = 56;
const RIGHT = 16;
const TOP = 30;
const PLOT = 150;
const BOTTOM = TOP + PLOT;
const STRIP = BOTTOM + 6;
const AXIS = STRIP + 14;
const HEIGHT = AXIS + 40;

type Attrs = Record<string, string | number>;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, cls = ""): SVGElementTagNameMap[K] {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  if (cls) node.setAttribute("class", cls);
  return node;
}

function titled<T extends SVGElement>(node: T, words: string): T {
  const title = svg("title");
  title.textContent = words;
  node.append(title);
  return node;
}

function f(value: number): string {
  return value.toFixed(1).replace(/\.0$/, "");
}

/** Where things go for a review of `moves` moves (one cell per position, the last one the
 * position after the last move). */
class Frame {
  readonly cell: number;
  constructor(readonly moves: number) {
    this.cell = (WIDTH - LEFT - RIGHT) / Math.max(1, moves + 1);
  }
  x(ply: number): number {
    return LEFT + (ply + 0.5) * this.cell;
  }
  y(p: number): number {
    return BOTTOM - p * PLOT;
  }
}

function grid(group: SVGGElement, frame: Frame): void {
  for (const percent of [0, 25, 50, 75, 100]) {
    const y = f(frame.y(percent / 100));
    group.append(svg("line", { x1: LEFT, y1: y, x2: WIDTH - RIGHT, y2: y }, "mm-grid"));
    const label = svg("text", { x: LEFT - 6, y, "text-anchor": "end", "dominant-baseline": "middle" }, "mm-dim");
    label.textContent = `${percent}%`;
    group.append(label);
  }
  const middle = f(frame.y(0.5));
  const axisName = svg("text", { x: 14, y: middle, "text-anchor": "middle", transform: `rotate(-90 14 ${middle})` });
  axisName.textContent = "honest chance to win";
  group.append(axisName);
}

function deals(group: SVGGElement, frame: Frame, plies: number[]): void {
  for (const ply of plies) {
    const x = f(frame.x(ply));
    group.append(svg("line", { x1: x, y1: TOP, x2: x, y2: BOTTOM }, "mm-deal-grid"));
    group.append(titled(svg("line", { x1: x, y1: AXIS, x2: x, y2: AXIS + 7, "data-deal": ply }, "mm-deal"), `move ${ply + 1}: a row dealt`));
  }
}

/** The band and the line, broken where a chance is missing (the review stopped first). */
function bandAndLine(group: SVGGElement, frame: Frame, entries: ReviewEntryView[]): void {
  const runs: ReviewEntryView[][] = [[]];
  for (const entry of entries) {
    if (entry.chance) runs[runs.length - 1].push(entry);
    else if (runs[runs.length - 1].length) runs.push([]);
  }
  for (const run of runs.filter((r) => r.length)) {
    const tops = run.map((e) => `${f(frame.x(e.ply))},${f(frame.y(e.chance!.high))}`);
    const lows = run.map((e) => `${f(frame.x(e.ply))},${f(frame.y(e.chance!.low))}`).reverse();
    const line = run.map((e) => `${f(frame.x(e.ply))},${f(frame.y(e.chance!.p))}`);
    if (run.length === 1) {
      group.append(svg("polyline", { points: `${tops[0]} ${lows[0]}` }, "mm-line"));
      continue;
    }
    group.append(svg("polygon", { points: [...tops, ...lows].join(" ") }, "mm-band"));
    group.append(svg("polyline", { points: line.join(" ") }, "mm-line"));
  }
}

/** The solver's verdict along the moves: one cell per run of equal verdicts. */
function strip(group: SVGGElement, frame: Frame, data: ReviewData): void {
  const verdicts = data.entries.map((e) => e.verdict as string);
  if (data.state === "done") verdicts.push(data.final_verdict ?? "unknown");
  let start = 0;
  for (let i = 1; i <= verdicts.length; i++) {
    if (i < verdicts.length && verdicts[i] === verdicts[start]) continue;
    const word = verdicts[start] === "winnable" || verdicts[start] === "unwinnable" ? verdicts[start] : "unknown";
    const x0 = frame.x(start - 0.5);
    const where = i - start === 1 ? `move ${start + 1}` : `moves ${start + 1}–${i}`;
    const cell = svg("rect", { x: f(x0), y: STRIP, width: f(frame.x(i - 0.5) - x0), height: 10, "data-verdict": word }, `mm-${word}`);
    group.append(titled(cell, `${where}: ${word} (the solver, which knows the stock)`));
    start = i;
  }
}

function axis(group: SVGGElement, frame: Frame): void {
  group.append(svg("line", { x1: LEFT, y1: AXIS, x2: WIDTH - RIGHT, y2: AXIS }, "mm-axis"));
  const most = Math.max(2, Math.floor(WIDTH / 70));
  const steps = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];
  const step = steps.find((s) => frame.moves / s <= most) ?? 2000;
  const ticks = frame.moves ? [1] : [];
  for (let m = step; m <= frame.moves; m += step) if (m - 1 >= step / 2) ticks.push(m);
  for (const move of ticks) {
    const label = svg("text", { x: f(frame.x(move - 1)), y: AXIS + 18, "text-anchor": "middle" }, "mm-dim");
    label.textContent = String(move);
    group.append(label);
  }
  const name = svg("text", { x: WIDTH - RIGHT, y: AXIS + 32, "text-anchor": "end" });
  name.textContent = "move (the chance before it)";
  group.append(name);
}

function turningPoint(group: SVGGElement, frame: Frame, data: ReviewData): void {
  const turn = data.turning_point;
  if (turn == null || !data.entries[turn]) return;
  const entry = data.entries[turn];
  const x = frame.x(turn + 0.5);
  const mark = titled(svg("g", { "data-ply": turn }, "mm-turn"), data.turning_words ?? "");
  mark.append(svg("line", { x1: f(x), y1: TOP - 4, x2: f(x), y2: STRIP + 10 }));
  if (entry.chance) mark.append(svg("circle", { cx: f(frame.x(turn)), cy: f(frame.y(entry.chance.p)), r: 5 }));
  const label = `move ${turn + 1}: ${entry.move === "d" ? "dealing a row" : entry.move} — no win after it`;
  const fits = x + 4 + 6.6 * label.length <= WIDTH - 2;
  const text = svg("text", { x: f(fits ? x + 4 : x - 4), y: TOP - 8, "text-anchor": fits ? "start" : "end" });
  text.textContent = label;
  mark.append(text);
  group.append(mark);
}

const SEVERITY: FlagLabel[] = ["inaccuracy", "mistake", "blunder"];
/** The most flagged moves a mark's tooltip lists (analysis/chart.py TITLE_FLAGS). */
const TITLE_FLAGS = 4;

/** A flag's triangle, pointing down at the move (analysis/chart.py _flag_path). */
function flagPath(label: FlagLabel, x: number): string {
  return label === "blunder" ? `M${f(x - 5.5)} ${f(TOP - 4)}h11l-5.5 10z` : `M${f(x - 4)} ${f(TOP - 2)}h8l-4 7z`;
}

/** A mark per group of flagged moves: the costliest one's shape, each move in the tooltip. */
function flags(group: SVGGElement, frame: Frame, data: ReviewData): void {
  const byPly = new Map<number, ReviewFlag>((data.flags ?? []).map((flag) => [flag.ply, flag]));
  for (const plies of data.flag_groups ?? []) {
    const members = plies.map((ply) => byPly.get(ply)).filter((flag): flag is ReviewFlag => !!flag);
    if (!members.length) continue;
    const label = members.reduce((worst, m) => (SEVERITY.indexOf(m.label) > SEVERITY.indexOf(worst) ? m.label : worst), members[0].label);
    const x = (frame.x(members[0].ply) + frame.x(members[members.length - 1].ply)) / 2;
    const listed = members.slice(0, TITLE_FLAGS).map((m) => `move ${m.ply + 1}: ${m.move === "d" ? "dealing a row" : m.move} — ${m.words}`);
    const more = members.length - TITLE_FLAGS;
    const words = listed.join("\n") + (more > 0 ? `\nand ${more} more (a click goes to each in turn)` : "");
    const attrs = { "data-ply": members[0].ply, "data-plies": members.map((m) => m.ply).join(" "), "data-label": label };
    const mark = titled(svg("g", attrs, "mm-flag"), words);
    mark.append(svg("path", { d: flagPath(label, x) }));
    if (members.length > 1) {
      const count = svg("text", { x: f(x + 6), y: TOP + 4 }, "mm-count");
      count.textContent = String(members.length);
      mark.append(count);
    }
    group.append(mark);
  }
}

function points(group: SVGGElement, frame: Frame, entries: ReviewEntryView[]): void {
  const radius = entries.length <= 120 ? 3 : 2;
  for (const entry of entries) {
    const x = frame.x(entry.ply);
    const point = titled(svg("g", { "data-ply": entry.ply }, "mm-point"), entry.words);
    point.append(svg("rect", { x: f(x - frame.cell / 2), y: TOP, width: f(frame.cell), height: PLOT }, "mm-hit"));
    if (entry.chance) point.append(svg("circle", { cx: f(x), cy: f(frame.y(entry.chance.p)), r: radius }));
    group.append(point);
  }
}

function patterns(): SVGDefsElement {
  const defs = svg("defs");
  const hatch = svg("pattern", { id: "mm-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  hatch.append(svg("rect", { width: 6, height: 6 }, "mm-hatch-bg"), svg("line", { x1: 0, y1: 0, x2: 0, y2: 6 }, "mm-hatch-line"));
  const dots = svg("pattern", { id: "mm-dots", width: 5, height: 5, patternUnits: "userSpaceOnUse" });
  dots.append(svg("rect", { width: 5, height: 5 }, "mm-dots-bg"), svg("circle", { cx: 2.5, cy: 2.5, r: 1.1 }, "mm-dot"));
  defs.append(hatch, dots);
  return defs;
}

/** A chart's accessible summary. */
export function chartSummary(data: ReviewData): string {
  const moves = data.entries.length;
  let words = `The honest chance to win before each of ${moves} moves`;
  if (data.turning_point != null) words += `; the deal was lost at move ${data.turning_point + 1}`;
  return words;
}

/** The chart in the replay viewer: redrawn when the review's data changes, its marker moved
 * when the ply on show changes. */
export class ReviewChart {
  readonly el = svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", tabindex: 0 }, "mw-review-chart");
  private readonly marker = svg("line", { y1: TOP - 4, y2: STRIP + 10 }, "mm-current");
  private frame = new Frame(0);
  private data: ReviewData | null = null;
  private ply = 0;

  constructor(private readonly send: (req: Request) => void) {
    // Patterns are ids: unique per chart, so that two widgets on a page keep their own.
    this.el.addEventListener("click", (e) => {
      const point = (e.target as Element).closest("[data-ply]");
      if (point) this.seek(this.nextOf(point));
    });
    this.el.addEventListener("keydown", (e) => {
      const to = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: this.frame.moves }[e.key];
      if (to === undefined) return;
      e.preventDefault();
      e.stopImmediatePropagation(); // the replay's own arrows would step twice
      this.seek(Math.max(0, Math.min(this.frame.moves, to)));
    });
  }

  /** The ply a click on `point` goes to: its own, or for a group of flags the next of its
   * moves after the one on show (the first, from elsewhere). */
  private nextOf(point: Element): number {
    const plies = (point.getAttribute("data-plies") ?? "").split(" ").filter(Boolean).map(Number);
    if (plies.length < 2) return Number(point.getAttribute("data-ply"));
    return plies[(plies.indexOf(this.ply) + 1) % plies.length];
  }

  private seek(ply: number): void {
    if (ply !== this.ply) this.send({ type: "seek", ply });
  }

  /** Draw `data` for a game of `moves` moves. */
  render(data: ReviewData, moves: number): void {
    if (this.data === data && this.frame.moves === moves) return;
    this.data = data;
    this.frame = new Frame(moves);
    const body = svg("g");
    const defs = patterns();
    const uid = `mm${Math.random().toString(36).slice(2, 9)}`;
    for (const pattern of defs.querySelectorAll("pattern")) pattern.id = `${uid}-${pattern.id}`;
    this.el.style.setProperty("--mm-hatch", `url(#${uid}-mm-hatch)`);
    this.el.style.setProperty("--mm-dots", `url(#${uid}-mm-dots)`);
    body.append(svg("rect", { width: WIDTH, height: HEIGHT }, "mm-bg"));
    grid(body, this.frame);
    deals(body, this.frame, data.deals ?? []);
    bandAndLine(body, this.frame, data.entries);
    strip(body, this.frame, data);
    axis(body, this.frame);
    turningPoint(body, this.frame, data);
    points(body, this.frame, data.entries);
    flags(body, this.frame, data); // above the points' hit areas: a click on a flag is the flag's
    body.append(this.marker);
    this.el.replaceChildren(titled(svg("g"), chartSummary(data)), defs, body);
    this.el.setAttribute("aria-label", `${chartSummary(data)}. Arrow keys move through the game.`);
    this.el.dataset.points = String(data.entries.length);
    this.mark(this.ply);
  }

  /** Put the marker at the ply on show. */
  mark(ply: number): void {
    this.ply = ply;
    const x = f(this.frame.x(ply));
    this.marker.setAttribute("x1", x);
    this.marker.setAttribute("x2", x);
    this.el.dataset.ply = String(ply);
  }
}
