/** Toolbar, status bar, message line, end-of-game banner and the Rules panel. */
import { el, formatTime, makeButton } from "./dom";
import type { ThemeChoice } from "./theme";
import type { Analysis, CoachView, DifficultyChoice, GameView, Kind, Request, RulesInfo, StatName } from "./types";

const STATS: [StatName, string][] = [
  ["foundations", "Foundations"],
  ["stock", "Stock"],
  ["reserve", "Reserve"],
  ["tableau", "Tableau"],
  ["moves", "Moves"],
];

const KEYS_HELP =
  "Keys: ← → or Tab go from pile to pile; ↑ ↓ go along a column's run and on to the row of " +
  "piles above or below; Home and End go to a row's first and last pile; Enter or Space picks " +
  "up and drops, Esc puts back, d deals, u or z undoes, y redoes, h hints, a plays safe cards " +
  "home, f finishes (every card left goes home, once that is all there is to do). " +
  "In a replay: ← and → step (Shift: to the next flagged move of a review), Home and End go " +
  "to the deal and the last move.";

type Send = (req: Request) => void;

/** The toolbar's buttons that the view's `actions` enable. */
const TOOLBAR_ACTIONS = ["new", "undo", "redo", "deal", "restart", "hint", "auto", "finish", "solution", "save", "files", "stats"];

/** What the "still winnable?" indicator says for each state. */
const VERDICTS: Record<string, string> = {
  checking: "checking…",
  winnable: "winnable ✓",
  unwinnable: "lost for good ✗",
  unknown: "unknown ?",
  won: "won ✓",
  chance: "chance to win:",
};

/** Widgets on the page so far: each one's deal-why gets an id of its own. */
let dealWhyCount = 0;

function button(label: string, action: string, title: string): HTMLButtonElement {
  return makeButton(label, title, { action });
}

/** A toolbar group (data-group names it for the styles). */
function group(name: string, ...children: HTMLElement[]): HTMLElement {
  const g = el("div", "mw-group");
  g.dataset.group = name;
  g.append(...children);
  return g;
}

/** Settings the front end keeps in traits of its own (Python sees them, they change no game). */
export interface Settings {
  fourColour: (on: boolean) => void;
  theme: (choice: ThemeChoice) => void;
}

export class Controls {
  readonly toolbar = el("div", "mw-toolbar");
  readonly status = el("div", "mw-status");
  readonly message = el("div", "mw-message");
  readonly banner = el("div", "mw-banner");
  readonly rulesPanel = el("section", "mw-rules");
  /** The "⋯" menu: settings, and in a narrow widget the controls the toolbar has no room for. */
  readonly menu = el("div", "mw-menu");
  private readonly preset = el("select", "mw-select");
  /** The difficulty of the next New game: the choices the preset chosen has (from Python). */
  private readonly difficulty = el("select", "mw-select");
  /** Per preset, the difficulties offered (rules_info.difficulties). */
  private difficulties: Record<string, DifficultyChoice[]> = {};
  /** The difficulty the player chose last: kept for the next New game, and chosen again when
   * a preset that offers it is chosen. */
  private wanted = "any";
  /** What the shipped table of deals says of the deal on show, beside its name: a button
   * that shows why in words below (a tooltip reaches no keyboard, touch or screen reader). */
  private readonly dealAbout = button("", "deal-why", "");
  /** Why the deal is in its band (and the solver's word), shown when its button is pressed. */
  private readonly dealWhy = el("p", "mw-deal-why");
  private readonly seed = el("input", "mw-seed");
  private readonly fourColour = el("input", "");
  private readonly themeSelect = el("select", "mw-select");
  private readonly winnableBox = el("input", "");
  private readonly peekBox = el("input", "");
  private readonly coachBox = el("input", "");
  /** The coach's word on the last move, quietly beside the status bar, with Show and Undo. */
  readonly coachLine = el("div", "mw-coach");
  private readonly coachWords = el("span", "mw-coach-words");
  /** The deal and the rules on show; a click opens the Rules panel. */
  private readonly gameName = button("", "rules", "Show the rules of this game");
  readonly verdict = el("span", "mw-verdict");
  /** Why the verdict, in words, beside it. */
  readonly verdictWhy = el("span", "mw-verdict-why");
  private readonly stats = new Map<StatName, HTMLElement>();
  private readonly buttons = new Map<string, HTMLButtonElement>();
  /** Controls that move into the menu when the widget is narrow, each with its place. */
  private readonly secondary: { node: HTMLElement; home: Comment }[] = [];
  private readonly menuMain = el("div", "mw-menu-group");
  private total = 104;
  private rulesName = "classic";
  /** A new game was asked for with the number typed: the box keeps it until it is dealt. */
  private askedForNew = false;
  /** What Stop would stop (from the view) and whether Think longer is offered (from the
   * analysis): the two arrive separately. */
  private busy: GameView["busy"] = null;
  private canThink = false;

  constructor(
    private readonly send: Send,
    private readonly settings: Settings,
  ) {
    this.buildToolbar();
    this.buildMenu();
    this.buildStatus();
    this.message.dataset.role = "message";
    this.message.setAttribute("role", "status");
    this.message.setAttribute("aria-live", "polite");
    this.banner.hidden = true;
    this.rulesPanel.hidden = true;
    for (const part of [this.toolbar, this.status, this.banner]) part.addEventListener("click", (e) => this.onClick(e));
  }

  private buildToolbar(): void {
    this.preset.setAttribute("aria-label", "Rules for the next game");
    this.preset.dataset.role = "preset";
    // Picking rules changes no game by itself (the game on show goes on): say what does.
    this.preset.addEventListener("change", () => {
      const name = this.preset.selectedOptions[0]?.textContent ?? this.preset.value;
      this.fillDifficulties();
      this.say(`Rules for the next game: ${name}. Press New game to deal it.`);
    });
    this.difficulty.setAttribute("aria-label", "Difficulty of the next game");
    this.difficulty.dataset.role = "difficulty";
    this.difficulty.title = "Any deal, a deal the solver has won, or an easy, medium or hard one of those (judged from the whole deal by how far a greedy player gets)";
    this.difficulty.addEventListener("change", () => {
      this.wanted = this.difficulty.value;
      const label = this.difficulty.selectedOptions[0]?.textContent ?? this.wanted;
      this.say(`Next game: ${label}. Press New game to deal it.`);
    });
    this.seed.type = "text";
    this.seed.inputMode = "numeric";
    this.seed.placeholder = "deal #";
    this.seed.setAttribute("aria-label", "Deal number (empty for a random deal)");
    this.seed.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !(e.shiftKey || e.ctrlKey || e.altKey || e.metaKey)) this.newGame();
    });
    const game = group("game", button("New game", "new", "New game: random, or the deal number typed"));
    game.append(this.park(this.seed), this.park(this.preset), this.difficulty);
    const edit = group("edit", this.park(button("Restart", "restart", "Back to the start of this deal (Undo brings the game back)")));
    edit.append(button("↶ Undo", "undo", "Undo (u or z)"), button("Redo ↷", "redo", "Redo (y)"));
    const play = group("play", button("Deal", "deal", "Deal a row (d)"), button("Hint", "hint", "Show a good move (h)"));
    play.append(
      this.park(button("Auto", "auto", "Play safe cards to the foundations (a)")),
      button("Finish", "finish", "Play every card left home: the stock is empty and nothing else is needed (f)"),
    );

    const solve = group(
      "solve",
      button("Solution ▶", "solution", "Let the solver play this deal from here (it peeks: the solver knows the stock, whatever Peek says)"),
      button("■ Stop", "stop", "Stop the solution playing back, or Think longer"),
    );
    const more = group("more");
    const menuButton = button("⋯", "more", "More: settings (and, in a narrow widget, the other controls)");
    menuButton.setAttribute("aria-label", "More: settings");
    menuButton.setAttribute("aria-expanded", "false"); // a disclosure: the panel holds form controls, no menu items
    more.append(menuButton);
    this.buttons.set("more", menuButton);
    this.toolbar.setAttribute("role", "toolbar");
    this.toolbar.append(game, edit, play, this.park(solve), more, this.menu);
    for (const { node, home } of this.secondary) node.after(home);
  }

  private buildMenu(): void {
    this.menu.hidden = true;
    this.menu.setAttribute("role", "group");
    this.menu.setAttribute("aria-label", "More");
    const colours = el("label", "mw-check");
    this.fourColour.type = "checkbox";
    this.fourColour.addEventListener("change", () => this.settings.fourColour(this.fourColour.checked));
    colours.append(this.fourColour, document.createTextNode(" 4 colours"));
    const theme = el("label", "mw-check", "Theme ");
    this.themeSelect.setAttribute("aria-label", "Theme");
    this.themeSelect.dataset.role = "theme";
    for (const choice of ["auto", "light", "dark"] as const) {
      const opt = el("option", "", choice === "auto" ? "as the notebook" : choice);
      opt.value = choice;
      this.themeSelect.append(opt);
    }
    this.themeSelect.addEventListener("change", () => this.settings.theme(this.themeSelect.value as ThemeChoice));
    theme.append(this.themeSelect);
    const peek = el("label", "mw-check");
    peek.title = "Off (fair play): Hint and the chance to win look only at what you can see. On: they come from the solver, which knows the stock";
    this.peekBox.type = "checkbox";
    this.peekBox.dataset.role = "peek";
    this.peekBox.addEventListener("change", () => this.send({ type: "peek", on: this.peekBox.checked }));
    peek.append(this.peekBox, document.createTextNode(" Peek at hidden cards"));
    const coach = el("label", "mw-check");
    coach.title = "After each move, judge it from what you could see before it (best, good, inaccuracy, mistake, blunder) and name the better move";
    this.coachBox.type = "checkbox";
    this.coachBox.dataset.role = "coach";
    this.coachBox.addEventListener("change", () => this.send({ type: "coach", on: this.coachBox.checked }));
    coach.append(this.coachBox, document.createTextNode(" Coach"));
    const keep = el("div", "mw-menu-items");
    keep.append(
      button("Save", "save", "Save this game in the notebook's folder"),
      button("Open…", "files", "Open a game saved in the notebook's folder"),
      button("Statistics", "stats", "Games played and won, streaks and best times"),
    );
    this.menuMain.append(keep, colours, theme, peek, coach);
    this.menu.append(this.menuMain);
  }

  /** Leave a mark where `node` lives in the toolbar, so it can come back from the menu. */
  private park<T extends HTMLElement>(node: T): T {
    this.secondary.push({ node, home: document.createComment(node.className) });
    return node;
  }

  /** In a narrow widget the secondary controls go into the menu (at most two rows stay). */
  setNarrow(narrow: boolean): void {
    for (const { node, home } of this.secondary) {
      if (narrow && node.parentElement !== this.menu) this.menu.insertBefore(node, this.menuMain);
      else if (!narrow && home.parentNode) home.before(node);
    }
  }

  /** The difficulty choice sits beside the preset while the toolbar keeps to one row; where it
   * would push the toolbar onto a second row (most notebook columns under about 1,100 px), it
   * waits in the "⋯" menu, as a narrow widget's controls do. */
  fitDifficulty(): void {
    if (this.difficulty.parentElement === this.menu) this.preset.after(this.difficulty);
    const first = this.buttons.get("more")!.getBoundingClientRect();
    const start = this.toolbar.querySelector("button[data-action='new']")!.getBoundingClientRect();
    const oneRow = Math.abs(first.top - start.top) < 4;
    const inMenu = this.preset.parentElement === this.menu;
    if (!oneRow && !inMenu) this.menu.insertBefore(this.difficulty, this.menuMain);
  }

  private toggleMenu(open = this.menu.hidden): void {
    this.menu.hidden = !open;
    this.buttons.get("more")!.setAttribute("aria-expanded", String(open));
  }

  /** Esc closes the menu, the Rules panel and the deal's why; true if one was open. */
  closePopups(): boolean {
    const open = !this.menu.hidden || !this.rulesPanel.hidden || !this.dealWhy.hidden;
    this.toggleMenu(false);
    if (!this.rulesPanel.hidden) this.toggleRules();
    this.toggleDealWhy(false);
    return open;
  }

  private toggleDealWhy(open = this.dealWhy.hidden): void {
    this.dealWhy.hidden = !open;
    this.dealAbout.setAttribute("aria-expanded", String(open));
  }

  private buildStatus(): void {
    this.gameName.classList.add("mw-game-name");
    this.gameName.dataset.role = "game-name";
    this.gameName.setAttribute("aria-haspopup", "true");
    this.dealAbout.classList.add("mw-deal-about");
    this.dealAbout.dataset.role = "deal-about";
    this.dealAbout.hidden = true;
    this.dealWhy.id = `mw-deal-why-${++dealWhyCount}`;
    this.dealWhy.dataset.role = "deal-why";
    this.dealAbout.setAttribute("aria-controls", this.dealWhy.id);
    this.toggleDealWhy(false);
    this.status.append(this.gameName, this.dealAbout);
    for (const [name, label] of STATS) {
      const item = el("span", "mw-stat");
      const value = el("b", "", "0");
      value.dataset.stat = name;
      item.append(el("span", "mw-stat-label", label), value);
      this.stats.set(name, value);
      this.status.append(item);
    }
    const check = el("label", "mw-check");
    check.title = "After each move, weigh the chance to win from what you can see (with Peek: let the solver, which knows the stock, check whether this deal can still be won)";
    this.winnableBox.type = "checkbox";
    this.winnableBox.addEventListener("change", () => this.send({ type: "winnable", on: this.winnableBox.checked }));
    check.append(this.winnableBox, document.createTextNode(" Winnable?"));
    this.verdict.setAttribute("role", "status");
    this.verdict.setAttribute("aria-live", "polite");
    this.verdict.hidden = true;
    this.verdictWhy.dataset.role = "verdict-why";
    this.verdictWhy.hidden = true;
    const think = button("Think longer", "think", "Give the solver more time for this position: 30 s, doubled on each press");
    think.hidden = true;
    this.buttons.set("think", think);
    const analysis = el("span", "mw-analysis");
    analysis.append(check, this.verdict, this.verdictWhy, think);
    this.status.append(analysis);
    this.coachLine.dataset.role = "coach-line";
    this.coachLine.hidden = true;
    this.coachWords.setAttribute("role", "status");
    this.coachWords.setAttribute("aria-live", "polite");
    const show = button("Show", "better", "Take the move back and light the better move on the board");
    show.dataset.role = "coach-show";
    const undo = button("Undo", "undo", "Take the move back");
    undo.dataset.role = "coach-undo";
    this.coachLine.append(this.coachWords, show, undo);
    this.status.append(this.coachLine, this.dealWhy);
  }

  private onClick(e: Event): void {
    const target = (e.target as HTMLElement).closest<HTMLButtonElement>("button[data-action]");
    if (!target || target.disabled) return;
    const action = target.dataset.action!;
    if (action === "more") return this.toggleMenu();
    this.toggleMenu(false);
    if (action === "rules") this.toggleRules();
    else if (action === "deal-why") this.toggleDealWhy();
    else if (action === "new") this.newGame();
    else this.send({ type: action } as Request);
  }

  private newGame(): void {
    const seed = this.seed.value.trim();
    this.askedForNew = seed !== "";
    const difficulty = this.difficulty.value || null;
    this.send({ type: "new", seed: seed || null, rules: this.preset.value || null, difficulty });
  }

  /** The deal number typed stays in its box when Python refuses it, so it can be mended. */
  private settleSeedBox(view: GameView): void {
    if (!this.askedForNew) return;
    this.askedForNew = false;
    if (view.kind !== "error") this.seed.value = "";
  }

  toggleRules(): void {
    this.rulesPanel.hidden = !this.rulesPanel.hidden;
    this.gameName.setAttribute("aria-pressed", String(!this.rulesPanel.hidden));
  }

  setRules(rules: RulesInfo): void {
    this.total = rules.foundations * 13;
    this.rulesName = rules.name ? rules.name.replace(/-/g, " ") : "custom rules";
    this.preset.replaceChildren(
      ...rules.presets.map((name) => {
        const opt = el("option", "", name.replace(/-/g, " "));
        opt.value = name;
        opt.selected = name === rules.name;
        return opt;
      }),
    );
    this.difficulties = rules.difficulties ?? {};
    this.fillDifficulties();
    const list = el("ul", "");
    list.append(...rules.lines.map((line) => el("li", "", line)));
    this.rulesPanel.replaceChildren(
      el("h3", "", `Rules: ${rules.title}`),
      list,
      el("p", "mw-keys", KEYS_HELP),
    );
  }

  /** The difficulties the preset chosen for the next game offers (Python says which), the one
   * the player wanted chosen if offered, else "Any deal". */
  private fillDifficulties(): void {
    const offered = this.difficulties[this.preset.value] ?? [{ value: "any", label: "Any deal" }];
    const wanted = offered.some((c) => c.value === this.wanted) ? this.wanted : "any";
    this.difficulty.replaceChildren(
      ...offered.map((choice) => {
        const opt = el("option", "", choice.label);
        opt.value = choice.value;
        opt.selected = choice.value === wanted;
        return opt;
      }),
    );
  }

  /** Show the solver's verdict and why (hidden when there is none: the indicator off and
   * no Think longer for this position, or not playing). */
  setAnalysis(analysis: Analysis): void {
    this.winnableBox.checked = analysis.enabled;
    const state = analysis.state;
    const why = (state && analysis.why) || "";
    this.verdict.hidden = state == null;
    this.verdict.dataset.state = state ?? "";
    this.verdict.textContent = state ? VERDICTS[state] ?? state : "";
    this.verdict.title = why;
    this.verdictWhy.hidden = !why;
    this.verdictWhy.textContent = why;
    this.verdictWhy.title = why;
    this.canThink = analysis.can_think;
    this.enableSolverTools();
    this.setCoach(analysis.coach ?? null);
  }

  /** The coach's word on the last move: "judging…", then its judgement; Show where it found
   * a better move, Undo where the move was not the best. */
  private setCoach(coach: CoachView | null): void {
    this.coachLine.hidden = coach == null;
    if (coach == null) return;
    const judging = coach.state === "judging";
    this.coachLine.dataset.label = judging ? "judging" : coach.label ?? "";
    const text = judging ? `Coach: judging ${coach.move === "d" ? "the deal" : coach.move}…` : `Coach · ${coach.words}`;
    if (this.coachWords.textContent !== text) this.coachWords.textContent = text;
    const [show, undo] = this.coachLine.querySelectorAll<HTMLButtonElement>("button");
    show.hidden = judging || !coach.better;
    undo.hidden = judging || coach.label === "best" || coach.label === "good";
  }

  /** Stop while something runs; Think longer while offered and nothing runs. */
  private enableSolverTools(): void {
    this.enable("stop", this.busy != null);
    this.enable("think", this.canThink && this.busy == null);
    this.buttons.get("think")!.hidden = !this.canThink && this.busy !== "think";
  }

  /** Show a message of the front end's own until the next view (empty: clear it, as when
   * a card is picked up and the last message has been read). */
  say(text: string, kind: Kind = "info"): void {
    this.message.textContent = text;
    this.message.dataset.kind = kind;
  }

  setFourColourBox(on: boolean): void {
    this.fourColour.checked = on;
  }

  setThemeChoice(choice: ThemeChoice): void {
    this.themeSelect.value = choice;
  }

  render(view: GameView): void {
    for (const [name, node] of this.stats) {
      const value = view.stats[name];
      const text = name === "foundations" ? `${value}/${this.total}` : String(value);
      if (node.textContent !== text) node.textContent = text;
    }
    // Python says which actions do something now (modes.actions): nothing is derived here.
    const play = view.mode === "play";
    const can = new Set(view.actions);
    for (const action of TOOLBAR_ACTIONS) this.enable(action, can.has(action));
    this.buttons.get("finish")!.hidden = !can.has("finish"); // there when it can be used
    this.seed.disabled = this.preset.disabled = this.difficulty.disabled = !can.has("new");
    this.winnableBox.disabled = !can.has("winnable");
    this.peekBox.checked = view.peek;
    this.peekBox.disabled = !can.has("peek");
    this.coachBox.checked = view.coach;
    this.coachBox.disabled = !can.has("coach");
    this.busy = view.busy;
    this.enableSolverTools();
    this.settleSeedBox(view);
    this.renderGameName(view);
    this.message.textContent = view.message;
    this.message.dataset.kind = view.kind;
    if (!play) this.banner.hidden = true;
    else if (view.status !== "playing" || !this.banner.hidden) this.renderBanner(view);
  }

  private renderGameName(view: GameView): void {
    const deal = view.seed != null ? `Deal #${view.seed}` : "Staged position";
    const text = `${deal} · ${this.rulesName}`;
    if (this.gameName.textContent !== text) this.gameName.textContent = text;
    const about = view.deal;
    this.dealAbout.hidden = about == null;
    this.dealAbout.dataset.difficulty = about?.difficulty ?? "";
    if (this.dealAbout.textContent !== (about?.text ?? "")) this.dealAbout.textContent = about?.text ?? "";
    this.dealAbout.title = about?.title ?? "";
    if (this.dealWhy.textContent !== this.dealAbout.title) this.dealWhy.textContent = this.dealAbout.title;
    if (about == null) this.toggleDealWhy(false);
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
    const review = view.actions.includes("review")
      ? [button("Review", "review", "Review the game: each move's verdict and honest chance, and where it was won or lost")]
      : [];
    if (view.status === "won") {
      const time = view.elapsed != null ? ` in ${formatTime(view.elapsed)}` : "";
      this.banner.replaceChildren(
        el("strong", "", "You won!"),
        el("span", "", `All ${this.total} cards home in ${view.stats.moves} moves${time}.`),
        ...(view.streak ? [el("span", "mw-streak", view.streak > 1 ? `${view.streak} wins in a row!` : "A new streak begins.")] : []),
        ...review,
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
        ...review,
        button("New game", "new", "Start a new deal"),
      );
    }
  }
}
