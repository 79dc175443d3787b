/** anywidget entry point: one App per displayed view of a MilliganWidget. */
import "./styles.css";
import type { AnyModel, RenderProps } from "@anywidget/types";
import { flipUp } from "./animate";
import { Board, SMALL_CARD } from "./board";
import { Controls } from "./controls";
import { Interaction } from "./interact";
import { LessonPanel, ReplayPanel } from "./panels";
import { Sheets } from "./sheets";
import { ThemeWatcher } from "./theme";
import type { Model, Panel, Request } from "./types";

const MAX_CARD = 88;
const MIN_CARD = 34;
/** Below this width (px) the widget shows its short words and fewer toolbar buttons. */
const NARROW = 560;

/** No key pressed inside the game reaches the notebook: JupyterLab's and Notebook 7's
 * command-mode keys (x cuts the cell, m makes it Markdown, 0 0 restarts the kernel) and
 * Shift/Ctrl+Enter (re-running the cell deals a new game) listen above the widget. Default
 * actions (typing, Tab) still happen. Ctrl/Cmd+S alone goes on: saving harms nothing. */
function keepKeysInside(e: KeyboardEvent): void {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === "s") return;
  e.stopPropagation();
  // Shift/Ctrl/Alt+Enter mean "run the cell" to a notebook hand: they press no button here.
  const modified = e.shiftKey || e.ctrlKey || e.altKey || e.metaKey;
  if (e.type === "keydown" && e.key === "Enter" && modified) e.preventDefault();
}

class App {
  readonly root = document.createElement("div");
  private readonly board: Board;
  private readonly controls: Controls;
  private readonly sheets: Sheets;
  /** The message line, and the offer to resume under it (beside the stock). */
  private readonly messageArea = document.createElement("div");
  /** What a screen reader is told and the eye sees on the board already (a card picked up,
   * put back, moved by the keyboard): a live region of its own, out of sight. */
  private readonly announcer = document.createElement("div");
  private readonly interaction: Interaction;
  private readonly lesson: LessonPanel;
  private readonly replay: ReplayPanel;
  private panel: Panel | null = null;
  private readonly resize: ResizeObserver;
  private readonly theme: ThemeWatcher;

  constructor(
    private readonly model: AnyModel<Model>,
    host: HTMLElement,
  ) {
    this.root.className = "mw-root";
    this.root.tabIndex = -1;
    this.root.dataset.lmSuppressShortcuts = "true";
    this.root.setAttribute("aria-label", "Miss Milligan patience");
    for (const type of ["keydown", "keypress", "keyup"] as const) this.root.addEventListener(type, keepKeysInside);
    // Notebook 7 matches its shortcuts in the capture phase, before the root hears the key:
    // Lumino skips an event whose target carries this attribute, so whatever takes the
    // focus here gets it.
    this.root.addEventListener("focusin", (e) => {
      if (e.target instanceof HTMLElement) e.target.dataset.lmSuppressShortcuts = "true";
    });
    const send = (req: Request): void => model.send(req);
    const setTrait = <K extends "four_colour" | "theme">(name: K, value: Model[K]): void => {
      model.set(name, value);
      model.save_changes();
    };
    this.controls = new Controls(send, {
      fourColour: (on) => setTrait("four_colour", on),
      theme: (choice) => setTrait("theme", choice),
    });
    this.sheets = new Sheets(send);
    this.messageArea.className = "mw-message-area";
    this.messageArea.append(this.controls.message, this.sheets.offer);
    this.root.addEventListener("keydown", (e) => {
      if (e.key === "Escape" && !this.sheets.close()) this.controls.closePopups();
    });
    this.announcer.className = "mw-sr-only";
    this.announcer.dataset.role = "announce";
    this.announcer.setAttribute("role", "status");
    this.announcer.setAttribute("aria-live", "polite");
    this.root.append(this.announcer, this.controls.toolbar, this.controls.status);
    this.lesson = new LessonPanel(send);
    this.replay = new ReplayPanel(send, this.root);
    this.root.append(this.lesson.el, this.replay.el);
    // The board's stage: the end-of-game banner and the Rules panel open over the felt,
    // where the player is looking, and never push the cards down.
    const stage = document.createElement("div");
    stage.className = "mw-stage";
    this.root.append(stage);
    this.board = new Board(stage);
    stage.append(this.controls.banner, this.controls.rulesPanel, this.sheets.stats, this.sheets.files);
    this.interaction = new Interaction(
      this.root,
      this.board,
      send,
      (text, kind) => this.controls.say(text, kind),
      (text) => this.announce(text),
    );
    this.theme = new ThemeWatcher(this.root, () => model.get("theme") ?? "auto");
    host.appendChild(this.root);
    // Fitted in the next frame, not in the observer's callback: the fit resizes what is
    // observed, and a resize inside the callback is a "ResizeObserver loop" page error.
    this.resize = new ResizeObserver(() => this.fitSoon());
    this.resize.observe(this.root);
    this.onPanel();
    this.onRules();
    this.onFourColour();
    this.onAnalysis();
    this.onTheme();
    this.onReview();
    Object.assign(this.root, { mmFullRender: () => this.fullRender() });
  }

  private fitting = 0;

  /** Say `text` to a screen reader (the same words twice are said twice: a live region
   * speaks only what changes). */
  private announce(text: string): void {
    const now = this.announcer.textContent ?? "";
    this.announcer.textContent = text && now === text ? `${text}\u00a0` : text;
  }

  private fitSoon(): void {
    if (this.fitting) return;
    this.fitting = requestAnimationFrame(() => {
      this.fitting = 0;
      this.fit();
    });
  }

  /** Size the cards to the width available (narrow or wide notebook columns). */
  private fit(): void {
    const cols = Math.max(this.model.get("rules_info").columns, this.model.get("rules_info").foundations);
    const width = this.board.el.clientWidth || this.root.clientWidth;
    if (!width) return;
    const narrow = this.root.clientWidth < NARROW;
    if (narrow !== this.root.classList.contains("mw-narrow")) {
      this.root.classList.toggle("mw-narrow", narrow);
      this.controls.setNarrow(narrow);
    }
    this.controls.fitDifficulty();
    const gap = narrow ? 2 : Math.max(4, Math.round(width / 120)); // narrow: room for the cards
    const inner = width - 2 * (gap + 2); // the board's padding (styles.css: .mw-board)
    const cw = Math.floor(Math.max(MIN_CARD, Math.min(MAX_CARD, (inner - gap * (cols - 1)) / cols)));
    if (cw === this.board.cardWidth) return;
    this.board.cardWidth = cw;
    this.root.classList.toggle("mw-small-cards", cw < SMALL_CARD);
    this.root.style.setProperty("--mw-cw", `${cw}px`);
    this.root.style.setProperty("--mw-gap", `${gap}px`);
    this.board.render(this.model.get("view"));
  }

  /** The variant changed: rebuild the piles (once, whichever change event comes first). */
  onRules = (): void => {
    const rules = this.model.get("rules_info");
    if (this.board.builtFor === rules) return;
    this.controls.setRules(rules);
    this.board.build(rules, this.messageArea);
    this.root.dataset.variant = rules.name ?? "custom";
    this.fit();
    this.onView();
  };

  /** A lesson or a replay started or ended: set up its panel (once per change). */
  onPanel = (): void => {
    const panel = this.model.get("panel") ?? { mode: "play" };
    if (this.panel === panel) return;
    this.panel = panel;
    this.lesson.setPanel(panel);
    this.replay.setPanel(panel);
    this.interaction.refusal = panel.mode === "replay" ? panel.refusal : null;
    this.lesson.el.hidden = panel.mode !== "lesson";
    this.replay.el.hidden = panel.mode !== "replay";
    this.root.dataset.mode = panel.mode;
  };

  onView = (): void => {
    if (this.board.builtFor !== this.model.get("rules_info")) return this.onRules();
    if (this.panel !== this.model.get("panel")) this.onPanel();
    const view = this.model.get("view");
    const start = performance.now();
    this.interaction.update(view, () => {
      this.board.render(view);
      flipUp(this.board.turnedUp(view.last?.turned ?? []));
      this.controls.render(view);
      this.sheets.render(view);
      if (view.mode === "lesson") this.lesson.render(view);
      else if (view.mode === "replay") this.replay.render(view);
    });
    this.root.dataset.rev = String(view.rev);
    this.root.dataset.renderMs = (performance.now() - start).toFixed(2);
  };

  onAnalysis = (): void => {
    const analysis = this.model.get("analysis") ?? { enabled: false, state: null };
    this.controls.setAnalysis(analysis);
    this.interaction.searching = analysis.state === "checking" || analysis.coach?.state === "judging";
  };

  onReview = (): void => {
    this.replay.setReview(this.model.get("game_review") ?? { state: null, entries: [] });
  };

  onStatistics = (): void => {
    this.sheets.showStatistics(this.model.get("statistics") ?? {});
  };

  onFiles = (): void => {
    this.sheets.showFiles(this.model.get("files") ?? {});
  };

  onTheme = (): void => {
    this.theme.apply();
    this.controls.setThemeChoice(this.model.get("theme") ?? "auto");
  };

  onFourColour = (): void => {
    const on = this.model.get("four_colour");
    this.root.classList.toggle("mw-four-colour", on);
    this.controls.setFourColourBox(on);
  };

  /** Rebuild and draw everything from scratch; returns milliseconds (used by the benchmark). */
  fullRender(): number {
    const start = performance.now();
    this.board.build(this.model.get("rules_info"), this.messageArea);
    this.board.render(this.model.get("view"));
    void this.root.offsetHeight; // include style and layout
    return performance.now() - start;
  }

  destroy(): void {
    this.resize.disconnect();
    cancelAnimationFrame(this.fitting);
    this.theme.destroy();
    this.interaction.destroy();
    this.root.remove();
  }
}

function render({ model, el }: RenderProps<Model>): () => void {
  const app = new App(model, el);
  model.on("change:view", app.onView);
  model.on("change:rules_info", app.onRules);
  model.on("change:panel", app.onPanel);
  model.on("change:four_colour", app.onFourColour);
  model.on("change:analysis", app.onAnalysis);
  model.on("change:theme", app.onTheme);
  model.on("change:statistics", app.onStatistics);
  model.on("change:files", app.onFiles);
  model.on("change:game_review", app.onReview);
  return () => {
    model.off("change:game_review", app.onReview);
    model.off("change:statistics", app.onStatistics);
    model.off("change:files", app.onFiles);
    model.off("change:theme", app.onTheme);
    model.off("change:analysis", app.onAnalysis);
    model.off("change:panel", app.onPanel);
    model.off("change:view", app.onView);
    model.off("change:rules_info", app.onRules);
    model.off("change:four_colour", app.onFourColour);
    app.destroy();
  };
}

export default { render };
