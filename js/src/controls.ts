/** Toolbar, status bar, message line, end-of-game banner and the Rules panel. */
import type { Analysis, GameView, Request, RulesInfo, StatName } from "./types";

const STATS: [StatName, string][] = [
  ["foundations", "Foundations"],
  ["stock", "Stock"],
  ["reserve", "Reserve"],
  ["tableau", "Tableau"],
  ["moves", "Moves"],
];

const KEYS_HELP =
  "Keys: arrows or Tab move between piles and cards, Enter or Space picks up and drops, " +
  "Esc cancels, d deals, u or z undoes, y redoes, h hints, a plays safe cards home. " +
  "In a replay: ← and → step, Home and End go to the deal and the last move.";

type Send = (req: Request) => void;

/** What the "still winnable?" indicator says for each state. */
const VERDICTS: Record<string, string> = {
  checking: "checking…",
  winnable: "winnable ✓",
  unwinnable: "lost for good ✗",
  unknown: "unknown ?",
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = ""): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text) node.textContent = text;
  return node;
}

function button(label: string, action: string, title: string): HTMLButtonElement {
  const b = el("button", "mw-btn", label);
  b.type = "button";
  b.dataset.action = action;
  b.title = title;
  return b;
}

function formatTime(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

export class Controls {
  readonly toolbar = el("div", "mw-toolbar");
  readonly status = el("div", "mw-status");
  readonly message = el("div", "mw-message");
  readonly banner = el("div", "mw-banner");
  readonly rulesPanel = el("section", "mw-rules");
  private readonly preset = el("select", "mw-select");
  private readonly seed = el("input", "mw-seed");
  private readonly fourColour = el("input", "");
  private readonly winnableBox = el("input", "");
  readonly verdict = el("span", "mw-verdict");
  private readonly stats = new Map<StatName, HTMLElement>();
  private readonly buttons = new Map<string, HTMLButtonElement>();
  private total = 104;

  constructor(
    private readonly send: Send,
    private readonly setFourColour: (on: boolean) => void,
  ) {
    this.buildToolbar();
    this.buildStatus();
    this.message.dataset.role = "message";
    this.message.setAttribute("role", "status");
    this.message.setAttribute("aria-live", "polite");
    this.banner.hidden = true;
    this.rulesPanel.hidden = true;
    this.toolbar.addEventListener("click", (e) => this.onClick(e));
    this.banner.addEventListener("click", (e) => this.onClick(e));
  }

  private buildToolbar(): void {
    const game = el("div", "mw-group");
    this.preset.setAttribute("aria-label", "Rules for the next game");
    this.seed.type = "text";
    this.seed.inputMode = "numeric";
    this.seed.placeholder = "random #";
    this.seed.setAttribute("aria-label", "Deal number (empty for a random deal)");
    this.seed.addEventListener("keydown", (e) => {
      if (e.key === "Enter") this.newGame();
      e.stopPropagation();
    });
    game.append(button("New game", "new", "New game: random, or the deal number typed"), this.seed, this.preset);
    const edit = el("div", "mw-group");
    edit.append(
      button("Restart", "restart", "Back to the start of this deal"),
      button("↶ Undo", "undo", "Undo (u or z)"),
      button("Redo ↷", "redo", "Redo (y)"),
    );
    const play = el("div", "mw-group");
    play.append(
      button("Deal", "deal", "Deal a row (d)"),
      button("Hint", "hint", "Show a good move (h)"),
      button("Auto", "auto", "Play safe cards to the foundations (a)"),
      button("Rules", "rules", "Show the rules of this game"),
    );
    const label = el("label", "mw-check");
    this.fourColour.type = "checkbox";
    this.fourColour.addEventListener("change", () => this.setFourColour(this.fourColour.checked));
    label.append(this.fourColour, document.createTextNode(" 4 colours"));
    play.append(label);
    const solve = el("div", "mw-group");
    solve.append(
      button("Solution ▶", "solution", "Let the solver play this deal from here"),
      button("■ Stop", "stop", "Stop the solution playing back"),
    );
    const check = el("label", "mw-check");
    check.title = "After each move, let the solver check whether this deal can still be won";
    this.winnableBox.type = "checkbox";
    this.winnableBox.addEventListener("change", () =>
      this.send({ type: "winnable", on: this.winnableBox.checked }),
    );
    check.append(this.winnableBox, document.createTextNode(" Winnable?"));
    this.verdict.setAttribute("role", "status");
    this.verdict.setAttribute("aria-live", "polite");
    this.verdict.hidden = true;
    solve.append(check, this.verdict);
    this.toolbar.setAttribute("role", "toolbar");
    this.toolbar.append(game, edit, play, solve);
  }

  private buildStatus(): void {
    for (const [name, label] of STATS) {
      const item = el("span", "mw-stat");
      const value = el("b", "", "0");
      value.dataset.stat = name;
      item.append(el("span", "mw-stat-label", label), value);
      this.stats.set(name, value);
      this.status.append(item);
    }
  }

  private onClick(e: Event): void {
    const target = (e.target as HTMLElement).closest<HTMLButtonElement>("button[data-action]");
    if (!target || target.disabled) return;
    const action = target.dataset.action!;
    if (action === "rules") this.toggleRules();
    else if (action === "new") this.newGame();
    else this.send({ type: action } as Request);
  }

  private newGame(): void {
    const seed = this.seed.value.trim();
    this.send({ type: "new", seed: seed || null, rules: this.preset.value || null });
    this.seed.value = "";
  }

  toggleRules(): void {
    this.rulesPanel.hidden = !this.rulesPanel.hidden;
    this.toolbar.querySelector('[data-action="rules"]')?.setAttribute("aria-pressed", String(!this.rulesPanel.hidden));
  }

  setRules(rules: RulesInfo): void {
    this.total = rules.foundations * 13;
    this.preset.replaceChildren(
      ...rules.presets.map((name) => {
        const opt = el("option", "", name.replace(/-/g, " "));
        opt.value = name;
        opt.selected = name === rules.name;
        return opt;
      }),
    );
    const list = el("ul", "");
    list.append(...rules.lines.map((line) => el("li", "", line)));
    this.rulesPanel.replaceChildren(
      el("h3", "", `Rules: ${rules.title}`),
      list,
      el("p", "mw-keys", KEYS_HELP),
    );
  }

  /** Show the "still winnable?" indicator's verdict (hidden when off or not playing). */
  setAnalysis(analysis: Analysis): void {
    this.winnableBox.checked = analysis.enabled;
    const state = analysis.enabled ? analysis.state : null;
    this.verdict.hidden = state == null;
    this.verdict.dataset.state = state ?? "";
    this.verdict.textContent = state ? VERDICTS[state] ?? state : "";
    this.verdict.title = (state && analysis.why) || "";
  }

  setFourColourBox(on: boolean): void {
    this.fourColour.checked = on;
  }

  render(view: GameView): void {
    for (const [name, node] of this.stats) {
      const value = view.stats[name];
      const text = name === "foundations" ? `${value}/${this.total}` : String(value);
      if (node.textContent !== text) node.textContent = text;
    }
    // A lesson has no New game, Redo or Auto; the replay viewer steps with its own controls.
    const play = view.mode === "play";
    const lesson = view.mode === "lesson";
    const moving = play || lesson;
    this.enable("new", play);
    this.seed.disabled = this.preset.disabled = !play;
    this.enable("undo", moving && view.can_undo);
    this.enable("redo", play && view.can_redo);
    this.enable("deal", moving && view.can_deal);
    this.enable("restart", moving && (view.stats.moves > 0 || view.can_redo));
    this.enable("hint", moving);
    this.enable("auto", play);
    this.enable("solution", play && view.status === "playing" && view.busy !== "solution");
    this.enable("stop", view.busy === "solution");
    this.winnableBox.disabled = !play;
    this.message.textContent = view.message;
    this.message.dataset.kind = view.kind;
    if (!play) this.banner.hidden = true;
    else if (view.status !== "playing" || !this.banner.hidden) this.renderBanner(view);
  }

  private enable(action: string, on: boolean): void {
    let button = this.buttons.get(action);
    if (!button) {
      button = this.toolbar.querySelector<HTMLButtonElement>(`[data-action="${action}"]`)!;
      this.buttons.set(action, button);
    }
    if (button.disabled === on) button.disabled = !on;
  }

  private renderBanner(view: GameView): void {
    this.banner.hidden = view.status === "playing";
    this.banner.dataset.status = view.status;
    if (view.status === "won") {
      const time = view.elapsed != null ? ` in ${formatTime(view.elapsed)}` : "";
      this.banner.replaceChildren(
        el("strong", "", "You won!"),
        el("span", "", `All ${this.total} cards home in ${view.stats.moves} moves${time}.`),
        button("New game", "new", "Start a new deal"),
      );
    } else if (view.status === "lost") {
      const undo = button("↶ Undo", "undo", "Take back the last move");
      const restart = button("Restart", "restart", "Back to the start of this deal");
      undo.disabled = !view.can_undo;
      restart.disabled = view.stats.moves === 0 && !view.can_redo;
      this.banner.replaceChildren(
        el("strong", "", "No useful move is left."),
        undo,
        restart,
        button("New game", "new", "Start a new deal"),
      );
    }
  }
}
