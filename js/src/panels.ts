/** The lesson panel and the replay viewer: they show what Python sends and send requests. */
import { ReviewChart } from "./chart";
import { el, makeButton } from "./dom";
import type { GameView, Panel, Request, ReviewData, ReviewFlag } from "./types";

type Send = (req: Request) => void;

/** A panel's button: `data-lesson` or `data-replay` names its action (the toolbar's buttons
 * use `data-action`, so each selector finds one button). */
function button(kind: "lesson" | "replay", label: string, action: string, title: string, extra = ""): HTMLButtonElement {
  const b = makeButton(label, title, { [kind]: action });
  if (extra) b.classList.add(extra);
  return b;
}

function setText(node: HTMLElement, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

function enable(node: HTMLButtonElement | HTMLInputElement, on: boolean): void {
  if (node.disabled === on) node.disabled = !on;
}

/** A lesson: the step's task, what the engine said about the last try, and the buttons. */
export class LessonPanel {
  readonly el = el("section", "mw-lesson");
  private readonly lessonTitle = el("span", "mw-lesson-name");
  private readonly counter = el("span", "mw-lesson-count");
  private readonly progress = el("div", "mw-progress");
  private readonly intro = el("p", "mw-lesson-intro");
  private readonly title = el("h3", "mw-lesson-title");
  private readonly prompt = el("p", "mw-lesson-prompt");
  private readonly feedback = el("div", "mw-feedback");
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private steps: string[] = [];

  constructor(send: Send) {
    this.el.hidden = true;
    this.el.setAttribute("aria-label", "Lesson");
    const head = el("div", "mw-lesson-head");
    const close = button("lesson", "✕", "close", "Close the lesson and go back to the game", "mw-close");
    close.setAttribute("aria-label", "Close the lesson");
    head.append(this.lessonTitle, this.counter, close);
    this.feedback.dataset.role = "feedback";
    this.feedback.setAttribute("role", "status");
    this.feedback.setAttribute("aria-live", "polite");
    const bar = el("div", "mw-lesson-buttons");
    const left = el("div", "mw-group");
    const right = el("div", "mw-group");
    const add = (group: HTMLElement, b: HTMLButtonElement): void => {
      this.buttons.set(b.dataset.lesson!, b);
      group.append(b);
    };
    add(left, button("lesson", "Hint", "hint", "Show the way (h)"));
    add(left, button("lesson", "↶ Undo", "undo", "Take back your last move in this step (u)"));
    add(left, button("lesson", "Restart step", "restart", "Back to the start of this step"));
    add(right, button("lesson", "‹ Previous", "previous", "The previous step"));
    add(right, button("lesson", "Next ›", "next", "The next step (once this one is done)", "mw-primary"));
    bar.append(left, right);
    this.el.append(head, this.progress, this.intro, this.title, this.prompt, this.feedback, bar);
    this.el.addEventListener("click", (e) => {
      const target = (e.target as HTMLElement).closest<HTMLButtonElement>("button[data-lesson], button[data-step]");
      if (!target || target.disabled) return;
      if (target.dataset.step !== undefined) send({ type: "goto_step", index: Number(target.dataset.step) });
      else send({ type: target.dataset.lesson } as Request);
    });
  }

  setPanel(panel: Panel): void {
    if (panel.mode !== "lesson") return;
    setText(this.lessonTitle, panel.title);
    this.intro.textContent = panel.intro;
    this.steps = panel.steps;
    this.progress.replaceChildren(
      ...panel.steps.map((title, i) => {
        const seg = el("button", "mw-seg");
        seg.type = "button";
        seg.dataset.step = String(i);
        seg.title = `${i + 1}. ${title}`;
        seg.setAttribute("aria-label", `Go to step ${i + 1}: ${title}`);
        return seg;
      }),
    );
  }

  render(view: GameView): void {
    const lesson = view.lesson;
    if (!lesson) return;
    const done = new Set(lesson.completed);
    Array.from(this.progress.children).forEach((seg, i) => {
      seg.classList.toggle("mw-seg-done", done.has(i));
      seg.classList.toggle("mw-seg-current", i === lesson.index);
      if (i === lesson.index) seg.setAttribute("aria-current", "step");
      else seg.removeAttribute("aria-current");
    });
    let count = `Step ${lesson.index + 1} of ${lesson.count}`;
    if (lesson.moves_total && lesson.moves_total > 1 && !lesson.step_done) {
      count += ` · move ${Math.min(lesson.moves_done + 1, lesson.moves_total)} of ${lesson.moves_total}`;
    }
    if (lesson.lesson_done) count = `All ${lesson.count} steps done`;
    setText(this.counter, count);
    this.counter.classList.toggle("mw-finished", lesson.lesson_done);
    this.intro.hidden = lesson.index !== 0 || !this.intro.textContent;
    setText(this.title, lesson.title || this.steps[lesson.index] || "");
    setText(this.prompt, lesson.prompt);
    setText(this.feedback, view.message);
    this.feedback.dataset.kind = view.message ? view.kind : "idle";
    this.el.dataset.stepDone = String(lesson.step_done);
    enable(this.buttons.get("undo")!, view.can_undo);
    enable(this.buttons.get("restart")!, lesson.moves_done > 0 || lesson.step_done);
    enable(this.buttons.get("previous")!, lesson.index > 0);
    enable(this.buttons.get("next")!, lesson.step_done && lesson.index + 1 < lesson.count);
  }
}

/** The replay viewer: a move list, first / previous / next / last and a slider. */
export class ReplayPanel {
  readonly el = el("section", "mw-replay");
  private readonly title = el("span", "mw-replay-title");
  private readonly counter = el("span", "mw-replay-count");
  private readonly slider = el("input", "mw-slider");
  private readonly list = el("ol", "mw-movelist");
  private readonly buttons = new Map<string, HTMLButtonElement>();
  /** The game review: its caption, progress, Stop, chart, turning point and mistakes. */
  private readonly reviewBox = el("div", "mw-review");
  private readonly reviewHead = el("div", "mw-review-head");
  private readonly progress = el("span", "mw-review-progress");
  private readonly caption = el("p", "mw-review-caption");
  private readonly turning = el("p", "mw-review-turning");
  private readonly chart: ReviewChart;
  private review: ReviewData = { state: null, entries: [] };
  private ply = 0;
  private count = 0;
  /** The ply asked for and not yet shown, and the newest slider value waiting behind it. */
  private inFlight: number | null = null;
  private queued: number | null = null;

  constructor(
    private readonly send: Send,
    root: HTMLElement,
  ) {
    this.el.hidden = true;
    this.el.setAttribute("aria-label", "Replay");
    const head = el("div", "mw-lesson-head");
    const close = button("replay", "Play from here", "close", "Close the replay and play on from this position", "mw-close-text");
    head.append(this.title, this.counter, close);
    const bar = el("div", "mw-replay-bar");
    this.slider.type = "range";
    this.slider.min = "0";
    this.slider.step = "1";
    this.slider.setAttribute("aria-label", "Move");
    this.slider.addEventListener("input", () => this.seek(Number(this.slider.value)));
    this.slider.addEventListener("keydown", (e) => e.stopPropagation());
    const add = (b: HTMLButtonElement): HTMLButtonElement => {
      this.buttons.set(b.dataset.replay!, b);
      return b;
    };
    bar.append(
      add(button("replay", "« First", "first", "The deal (Home)")),
      add(button("replay", "‹ Back", "back", "One move back (←)")),
      this.slider,
      add(button("replay", "Next ›", "forward", "One move on (→)", "mw-primary")),
      add(button("replay", "Last »", "last", "The last move (End)")),
      add(button("replay", "Review", "review", "Review the game: each move's verdict and honest chance, where it was lost")),
    );
    this.list.setAttribute("aria-label", "Moves");
    this.list.tabIndex = 0; // a scrolled list: the keyboard reaches it (arrows step the replay)
    this.chart = new ReviewChart(send);
    this.progress.setAttribute("role", "status");
    this.progress.setAttribute("aria-live", "polite");
    this.progress.dataset.role = "review-progress";
    const stop = add(button("replay", "■ Stop", "stop", "Stop the review (the moves reviewed are kept)"));
    this.reviewHead.append(this.progress, stop);
    this.caption.dataset.role = "review-caption";
    this.turning.dataset.role = "turning-point";
    const legend = el(
      "p",
      "mw-review-legend",
      "Line: the honest chance before each move, with its 95% band · strip: the solver's verdict " +
        "(solid winnable, hatched unwinnable, dotted unknown) · ticks: deals · flagged moves: " +
        "▼ blunder (large), ▼ mistake, ▽ inaccuracy, a number for several · dashed: the turning " +
        "point · click a point or use the arrow keys to go to that move, Shift+arrows to the " +
        "next flagged move",
    );
    this.reviewBox.append(this.reviewHead, this.caption, this.chart.el, legend, this.turning);
    this.reviewBox.hidden = true;
    this.el.append(head, bar, this.reviewBox, this.list);
    this.el.addEventListener("click", (e) => this.onClick(e));
    // Arrows, Home and End step through the replay (before the board's keys see them).
    root.addEventListener("keydown", (e) => this.onKey(e), true);
  }

  private onClick(e: Event): void {
    const target = e.target as HTMLElement;
    const b = target.closest<HTMLButtonElement>("button[data-replay]");
    if (b && !b.disabled) {
      if (b.dataset.replay === "close") return this.send({ type: "close" });
      if (b.dataset.replay === "review" || b.dataset.replay === "stop") return this.send({ type: b.dataset.replay });
      return this.step(b.dataset.replay!);
    }
    const item = target.closest<HTMLElement>("li[data-ply]");
    if (item) this.seek(Number(item.dataset.ply));
  }

  private onKey(e: KeyboardEvent): void {
    if (this.el.hidden || e.ctrlKey || e.metaKey || e.altKey) return;
    const tag = (e.target as HTMLElement).tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const action = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" }[e.key];
    if (!action) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (e.shiftKey && (action === "back" || action === "forward")) return this.toFlag(action === "forward" ? 1 : -1);
    this.step(action);
  }

  /** Shift+→ and Shift+←: the next (or previous) flagged move of the review. */
  private toFlag(step: number): void {
    const from = this.queued ?? this.inFlight ?? this.ply;
    const plies = (this.review.flags ?? []).map((flag) => flag.ply);
    const to = step > 0 ? plies.find((p) => p > from) : plies.filter((p) => p < from).pop();
    if (to !== undefined) this.seek(to);
  }

  private step(action: string): void {
    const from = this.queued ?? this.inFlight ?? this.ply;
    const to = { first: 0, back: from - 1, forward: from + 1, last: this.count }[action] ?? from;
    this.seek(Math.max(0, Math.min(this.count, to)));
  }

  /** Ask for a ply; while one is on its way, keep only the newest wish (a dragged slider). */
  private seek(ply: number): void {
    if (this.inFlight !== null) {
      this.queued = ply;
      return;
    }
    if (ply === this.ply) return;
    this.inFlight = ply;
    this.send({ type: "seek", ply });
  }

  setPanel(panel: Panel): void {
    if (panel.mode !== "replay") return;
    setText(this.title, panel.title);
    this.count = panel.moves.length;
    this.slider.max = String(this.count);
    const deal = el("li", "mw-move");
    deal.dataset.ply = "0";
    deal.append(el("span", "mw-move-n", "0"), el("span", "mw-move-text", "The deal"));
    this.list.replaceChildren(
      deal,
      ...panel.moves.map((move, i) => {
        const item = el("li", "mw-move");
        item.dataset.ply = String(i + 1);
        item.append(el("span", "mw-move-n", String(i + 1)), el("span", "mw-move-text", move.text));
        if (move.comment) {
          item.classList.add("mw-commented");
          item.append(el("span", "mw-move-comment", move.comment));
        }
        return item;
      }),
    );
    this.inFlight = this.queued = null;
    this.ply = -1;
    this.annotate();
  }

  /** The game review's data came (or went): the chart, the words, the marks in the list. */
  setReview(review: ReviewData): void {
    this.review = review ?? { state: null, entries: [] };
    const on = this.review.state != null;
    this.reviewBox.hidden = !on;
    this.el.dataset.review = this.review.state ?? "none";
    enable(this.buttons.get("stop")!, this.review.state === "running");
    this.buttons.get("stop")!.hidden = this.review.state !== "running";
    if (on) {
      setText(this.progress, this.review.progress ?? "");
      this.progress.hidden = !this.progress.textContent;
      setText(this.caption, this.review.caption ?? "");
      const mistakes = this.review.mistakes ?? [];
      const named = mistakes.length ? ` Common mistakes (${mistakes.length}): ${mistakes.slice(0, 3).map((m) => m.words).join("; ")}${mistakes.length > 3 ? "; …" : ""}.` : "";
      setText(this.turning, (this.review.turning_words ?? "") + named);
      this.chart.render(this.review, this.count);
      this.chart.mark(Math.max(0, this.ply));
    }
    this.annotate();
  }

  /** Beside each move in the list: its verdict and honest chance, the turning point marked,
   * and for a flagged move its label, why and the better move (the entry of move n is the
   * position before it). */
  private annotate(): void {
    const entries = this.review.entries;
    const turn = this.review.turning_point;
    const flags = new Map<number, ReviewFlag>((this.review.flags ?? []).map((flag) => [flag.ply, flag]));
    Array.from(this.list.children).forEach((item, i) => {
      for (const old of item.querySelectorAll(".mw-move-review, .mw-move-flag")) old.remove();
      item.classList.remove("mw-flagged", "mw-turning");
      delete (item as HTMLElement).dataset.label;
      const entry = i > 0 ? entries[i - 1] : undefined;
      if (!entry) return;
      const mark = { winnable: "✓", unwinnable: "✗", unknown: "?" }[entry.verdict] ?? "?";
      const chance = entry.chance ? `${Math.round(entry.chance.p * 100)}%` : "–";
      const note = el("span", "mw-move-review", `${mark} ${chance}`);
      note.dataset.verdict = entry.verdict;
      note.title = entry.words;
      item.append(note);
      if (turn === entry.ply) {
        item.classList.add("mw-turning");
        note.textContent = `${mark} ${chance} · turning point`;
      }
      const flag = flags.get(entry.ply);
      if (flag) {
        item.classList.add("mw-flagged");
        (item as HTMLElement).dataset.label = flag.label;
        item.append(el("span", "mw-move-flag", flag.words));
      }
    });
  }

  render(view: GameView): void {
    const replay = view.replay;
    if (!replay) return;
    const moved = replay.ply !== this.ply;
    this.ply = replay.ply;
    this.count = replay.count;
    this.inFlight = null;
    const queued = this.queued;
    this.queued = null;
    if (queued !== null && queued !== this.ply) this.seek(queued);
    setText(this.counter, replay.ply ? `Move ${replay.ply} of ${replay.count}` : `The deal · ${replay.count} moves`);
    if (this.inFlight === null) this.slider.value = String(replay.ply);
    enable(this.buttons.get("first")!, replay.ply > 0);
    enable(this.buttons.get("back")!, replay.ply > 0);
    enable(this.buttons.get("forward")!, replay.ply < replay.count);
    enable(this.buttons.get("last")!, replay.ply < replay.count);
    enable(this.buttons.get("review")!, view.actions.includes("review") && this.review.state !== "running");
    if (this.review.state != null) this.chart.mark(replay.ply);
    if (!moved) return;
    const old = this.list.querySelector(".mw-current");
    old?.classList.remove("mw-current");
    old?.removeAttribute("aria-current");
    const current = this.list.children[replay.ply] as HTMLElement | undefined;
    if (!current) return;
    current.classList.add("mw-current");
    current.setAttribute("aria-current", "step");
    // Keep the current move and the next (the one about to be played: a review's flag is on
    // it) in sight inside the list, without scrolling the notebook.
    const next = (current.nextElementSibling as HTMLElement | null) ?? current;
    const top = current.offsetTop; // the list is the offset parent
    const bottom = next.offsetTop + next.offsetHeight;
    if (top < this.list.scrollTop) this.list.scrollTop = top - 4;
    else if (bottom > this.list.scrollTop + this.list.clientHeight) {
      this.list.scrollTop = bottom - this.list.clientHeight + 4;
    }
  }
}
