/** Playing with the mouse, touch and keyboard: pick up, highlight, drop, request. */
import { capture, landAll, movedCards, play, springBack, type Snapshot } from "./animate";
import { cardName, setCard } from "./cards";
import { pileLabel, type Board } from "./board";
import { isRefusal, type GameView, type Grab, type Kind, type Request } from "./types";

const DRAG_THRESHOLD = 5;

interface Press {
  grab: Grab;
  cards: HTMLElement[];
  x: number;
  y: number;
  pointerId: number;
}

interface Drag {
  grab: Grab;
  cards: HTMLElement[];
  ghost: HTMLElement;
  x: number;
  y: number;
  /** Where the cards were when picked up (viewport boxes), and how far the pointer has
   * taken them since. */
  rects: DOMRect[];
  dx: number;
  dy: number;
  /** The root's viewport origin when the drag began (the ghost is placed inside the root),
   * and how far the root has moved since (the page scrolled under the drag). */
  origin: DOMPoint;
  scrolled: { x: number; y: number };
  /** The piles' boxes when the drag began, the board's box then and its drawing
   * (`version`): the drop looks its target up in them, with no hit test on the way to
   * sending the move. */
  boxes: Map<string, DOMRect>;
  board: DOMRect;
  version: number;
}

interface Pending {
  drag: Drag;
  rev: number;
  timer: number;
}

/** The document or shadow root the widget lives in: marimo renders widgets in a shadow
 * root, where `document.elementFromPoint` and `document.activeElement` give the host. */
function scope(root: HTMLElement): Document | ShadowRoot {
  const node = root.getRootNode();
  return node instanceof ShadowRoot ? node : document;
}

/** Where the root's padding box starts on screen: the ghost's containing block. Fixed
 * positioning is no use here: JupyterLab's `contain: strict` ancestors become the
 * containing block of fixed elements, which then land away from the pointer. */
function originOf(root: HTMLElement): DOMPoint {
  const r = root.getBoundingClientRect();
  return new DOMPoint(r.left + root.clientLeft, r.top + root.clientTop);
}

function inside(r: DOMRect, x: number, y: number): boolean {
  return x >= r.left && x < r.right && y >= r.top && y < r.bottom;
}

/** Where a card or pile sits: its pile and, for a card, its index in the pile. */
type Place = { pile: string; index: number | null };

/** "the 7 of hearts", or "the 7 of hearts and the 2 cards on it" (`codes`: bottom to top). */
function heldWords(codes: string[]): string {
  const lead = `the ${cardName(codes[0] ?? "")}`;
  const rest = codes.length - 1;
  return rest ? `${lead} and the ${rest === 1 ? "card" : `${rest} cards`} on it` : lead;
}

/** "column 5", "column 5 or foundation 3", "column 5, the reserve or foundation 3". */
function orWords(piles: string[]): string {
  const names = piles.map((p) => (p === "reserve" ? "the reserve" : pileLabel(p)));
  return names.length > 1 ? `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}` : names[0] ?? "";
}

function centreX(el: Element | undefined): number {
  const r = el?.getBoundingClientRect();
  return r ? r.left + r.width / 2 : 0;
}

/** The pile name and card index an element belongs to. */
function locate(node: EventTarget | null): Place | null {
  if (!(node instanceof Element)) return null;
  const pile = node.closest<HTMLElement>("[data-pile]");
  if (!pile) return null;
  const card = node.closest<HTMLElement>(".mw-card");
  return { pile: pile.dataset.pile!, index: card ? Number(card.dataset.index) : null };
}

export class Interaction {
  private view: GameView | null = null;
  private selected: Grab | null = null;
  private press: Press | null = null;
  private drag: Drag | null = null;
  private pending: Pending | null = null;
  private focusBefore: { el: Element; ring: boolean; pile: string; index: number | null } | null = null;
  /** Esc put a held card back: the button's release that follows does nothing. */
  private dragCancelled = false;
  /** Where the button went down (any press, whether it picked up a card or not). */
  private pressedAt: { x: number; y: number } | null = null;
  /** Why no card can be picked up in this mode (the replay viewer), or null. */
  refusal: string | null = null;
  /** A move asked for from the keyboard: once played, the focus goes with the card. */
  private keyboardMove = false;
  /** The kernel searches in the background (the coach judges, the indicator checks). */
  searching = false;

  constructor(
    private readonly root: HTMLElement,
    private readonly board: Board,
    private readonly send: (req: Request) => void,
    private readonly say: (text: string, kind?: Kind) => void,
    /** Words for a screen reader alone (a live region of their own): what was picked up. */
    private readonly announce: (text: string) => void,
  ) {
    const el = board.el;
    el.addEventListener("pointerdown", (e) => this.onPointerDown(e));
    el.addEventListener("pointermove", (e) => this.onPointerMove(e));
    el.addEventListener("pointerup", (e) => this.onPointerUp(e));
    el.addEventListener("pointercancel", () => this.cancelPress());
    el.addEventListener("dblclick", (e) => this.onDoubleClick(e));
    root.addEventListener("keydown", (e) => this.onKey(e));
    // The page may scroll under a drag (wheel, keys): keep the ghost on the pointer.
    this.onScroll = () => this.drag && this.followScroll(this.drag);
    document.addEventListener("scroll", this.onScroll, { capture: true, passive: true });
  }

  private readonly onScroll: () => void;

  destroy(): void {
    document.removeEventListener("scroll", this.onScroll, { capture: true });
  }

  private elementAt(x: number, y: number): Element | null {
    return scope(this.root).elementFromPoint(x, y);
  }

  private get active(): Element | null {
    return scope(this.root).activeElement;
  }

  // ------------------------------------------------------------------ view updates
  /** Apply a new view: settle a pending drop, render, animate, restore focus. */
  update(view: GameView, render: () => void): void {
    const ghostRects = this.settlePending(view);
    const before: Snapshot = capture(this.board, view.last, ghostRects);
    this.rememberFocus();
    this.view = view;
    this.selected = null;
    render();
    this.highlight();
    this.showHint(view);
    this.restoreFocus();
    this.followMove(view);
    // Measure the new places just before the next paint, in the layout pass the browser
    // does anyway, so the cards land in their piles without a forced layout first.
    requestAnimationFrame(() => play(this.board, view.last, before));
  }

  private settlePending(view: GameView): DOMRect[] | null {
    const pending = this.pending;
    if (!pending || view.rev <= pending.rev) return null;
    this.pending = null;
    window.clearTimeout(pending.timer);
    if (isRefusal(view.kind)) {
      this.returnGhost(pending.drag);
      return null;
    }
    const { rects, dx, dy } = pending.drag; // where the ghost is, without asking for a layout
    this.dropGhost(pending.drag);
    return rects.map((r) => new DOMRect(r.x + dx, r.y + dy, r.width, r.height));
  }

  // ------------------------------------------------------------------ picking up
  private targetsOf(grab: Grab | null): string[] {
    if (!grab || !this.view) return [];
    return this.view.targets[`${grab.source}:${grab.count}`] ?? [];
  }

  /** What a press on card `index` of `pile` picks up, if anything. */
  private grabAt(pile: string, index: number | null): Grab | null {
    const cards = this.board.cards(pile);
    if (!this.view || !cards.length) return null;
    const i = index ?? cards.length - 1;
    if (!cards[i]?.classList.contains("mw-movable")) return null;
    const grab = { source: pile, count: cards.length - i };
    if (pile.startsWith("f") && !this.targetsOf(grab).length) return null;
    return grab;
  }

  private grabbedCards(grab: Grab): HTMLElement[] {
    const cards = this.board.cards(grab.source);
    return cards.slice(cards.length - grab.count);
  }

  /** Hold `grab` (null: nothing), and say so; `quiet`: the cards held go on a move, which
   * says the rest. */
  private select(grab: Grab | null, quiet = false): void {
    const was = this.selected;
    this.selected = grab;
    if (grab) this.say(""); // picking up a card: the last message has been read
    this.highlight();
    if (quiet) return;
    if (grab) this.announce(this.pickUpWords(grab));
    else if (was) this.announce(`Put back ${this.cardsWords(was)}.`);
  }

  /** The cards of a pick-up in words ("the 7 of hearts and the card on it"). */
  private cardsWords(grab: Grab): string {
    return heldWords(this.grabbedCards(grab).map((c) => c.dataset.card ?? ""));
  }

  /** "Picked up the 7 of hearts from column 3: it can go to column 5. Enter to drop, Escape
   * to cancel." */
  private pickUpWords(grab: Grab): string {
    const targets = this.targetsOf(grab);
    const where = targets.length ? `it can go to ${orWords(targets)}` : "it has nowhere to go now";
    return `Picked up ${this.cardsWords(grab)} from ${pileLabel(grab.source)}: ${where}. Enter to drop, Escape to cancel.`;
  }

  /** Mark the selected cards (held: aria-pressed) and the piles the engine allows them to go to. */
  private highlight(): void {
    for (const c of this.board.el.querySelectorAll(".mw-selected")) c.classList.remove("mw-selected");
    for (const c of this.board.el.querySelectorAll('[aria-pressed="true"]')) c.setAttribute("aria-pressed", "false");
    for (const p of this.board.piles.values()) p.classList.remove("mw-legal");
    const grab = this.selected ?? this.drag?.grab ?? null;
    this.root.classList.toggle("mw-holding", grab !== null);
    if (!grab) return;
    if (this.selected) {
      for (const c of this.grabbedCards(grab)) {
        c.classList.add("mw-selected");
        if (c.hasAttribute("aria-pressed")) c.setAttribute("aria-pressed", "true");
      }
    }
    for (const t of this.targetsOf(grab)) this.board.pile(t)?.classList.add("mw-legal");
  }

  private showHint(view: GameView): void {
    for (const n of this.board.el.querySelectorAll(".mw-hint, .mw-hint-target")) {
      n.classList.remove("mw-hint", "mw-hint-target");
    }
    const hint = view.hint;
    if (!hint) return;
    if (hint.source === "stock") {
      this.board.pile("stock")?.classList.add("mw-hint-target");
      return;
    }
    for (const c of this.grabbedCards({ source: hint.source, count: hint.count })) c.classList.add("mw-hint");
    for (const t of hint.targets) this.board.pile(t)?.classList.add("mw-hint-target");
  }

  private request(grab: Grab, target: string): void {
    this.announce(""); // what was picked up is said; the answer is the message line's
    this.send({ type: "move", source: grab.source, target, count: grab.count });
  }

  // ------------------------------------------------------------------ pointer
  private onPointerDown(e: PointerEvent): void {
    this.dragCancelled = false; // a new press: whatever Esc put back was let go of elsewhere
    this.pressedAt = null;
    if (e.button !== 0 || this.pending) return;
    this.pressedAt = { x: e.clientX, y: e.clientY };
    const node = this.landFlights(e);
    this.takeFocus(node);
    const at = locate(node);
    if (!at || at.index === null) return;
    if (this.refusal !== null) return this.say(this.refusal, "error");
    const grab = this.grabAt(at.pile, at.index);
    if (!grab) return;
    this.holdTheSearch();
    this.press = { grab, cards: this.grabbedCards(grab), x: e.clientX, y: e.clientY, pointerId: e.pointerId };
    try {
      this.board.el.setPointerCapture(e.pointerId); // keep the drag when the pointer leaves
    } catch {
      // synthetic events have no active pointer to capture
    }
    e.preventDefault();
  }

  /** What the press is on once the cards in flight have landed: a card still sliding in
   * takes no clicks, yet the player presses where they see it going. A press on the
   * stock lands nothing (a quick second deal). */
  private landFlights(e: PointerEvent): EventTarget | null {
    if (locate(e.target)?.pile === "stock" || !landAll(this.board.el)) return e.target;
    return this.elementAt(e.clientX, e.clientY) ?? e.target;
  }

  /** Keep the keyboard with the game after a click (or notebook shortcuts would fire),
   * without the focus ring a mouse press does not call for (the keys bring it back). */
  private takeFocus(node: EventTarget | null): void {
    const focusable = node instanceof Element ? node.closest<HTMLElement>(".mw-card.mw-movable, [data-pile]") : null;
    const options = { preventScroll: true, focusVisible: false } as FocusOptions;
    (focusable && this.root.contains(focusable) ? focusable : this.root).focus(options);
  }

  private onPointerMove(e: PointerEvent): void {
    if (this.drag) return this.moveGhost(e);
    const press = this.press;
    if (!press || Math.hypot(e.clientX - press.x, e.clientY - press.y) < DRAG_THRESHOLD) return;
    this.startDrag(press);
    this.moveGhost(e);
  }

  private onPointerUp(e: PointerEvent): void {
    const drag = this.drag;
    this.press = null;
    if (this.dragCancelled) {
      this.dragCancelled = false;
      return;
    }
    if (drag) return this.drop(drag, e);
    if (this.travelled(e)) return this.select(null); // a drag that picked nothing up
    const at = locate(this.elementAt(e.clientX, e.clientY) ?? e.target);
    if (at) this.click(at.pile, at.index);
  }

  /** Did the pointer go further than a click's wobble since the press? */
  private travelled(e: PointerEvent): boolean {
    const from = this.pressedAt;
    return from !== null && Math.hypot(e.clientX - from.x, e.clientY - from.y) >= DRAG_THRESHOLD;
  }

  /** Esc while a card is held: it goes back, and the release of the button is ignored. */
  private cancelDrag(drag: Drag): void {
    this.dragCancelled = true;
    this.announce(`Put back ${this.cardsWords(drag.grab)}.`);
    this.returnGhost(drag);
  }

  private cancelPress(): void {
    this.press = null;
    if (this.drag) this.returnGhost(this.drag);
  }

  private click(pile: string, index: number | null): void {
    if (this.refusal !== null) return this.say(this.refusal, "error");
    const sel = this.selected;
    if (pile === "stock") {
      // A click on the stock deals, whatever is held: cards never go back to the stock.
      if (sel) this.select(null, true);
      return this.send({ type: "deal" });
    }
    if (sel && pile !== sel.source) {
      this.select(null, true);
      return this.request(sel, pile);
    }
    const grab = this.grabAt(pile, index);
    const same = sel && grab && sel.count === grab.count;
    this.select(same ? null : grab);
  }

  private onDoubleClick(e: MouseEvent): void {
    // With pointer capture the event targets the board: find the card under the pointer.
    const at = locate(this.elementAt(e.clientX, e.clientY));
    if (!at || at.index === null || at.pile.startsWith("f")) return;
    const cards = this.board.cards(at.pile);
    if (at.index !== cards.length - 1) return;
    this.select(null);
    this.send({ type: "move", source: at.pile, target: "f", count: 1 });
  }

  // ------------------------------------------------------------------ dragging
  private startDrag(press: Press): void {
    const ghost = document.createElement("div");
    ghost.className = "mw-ghost";
    ghost.dataset.role = "ghost";
    ghost.setAttribute("aria-hidden", "true"); // a picture of the cards held: they are named where they lie
    const origin = originOf(this.root);
    const rects = press.cards.map((card) => card.getBoundingClientRect());
    const [boxes, board, version] = [this.board.boxes(), this.board.el.getBoundingClientRect(), this.board.version];
    press.cards.forEach((card, i) => {
      const r = rects[i];
      const copy = card.cloneNode(true) as HTMLElement;
      copy.classList.remove("mw-selected", "mw-hint");
      copy.removeAttribute("tabindex");
      const box = { left: r.left - origin.x, top: r.top - origin.y, width: r.width, height: r.height };
      Object.assign(copy.style, Object.fromEntries(Object.entries(box).map(([k, v]) => [k, `${v}px`])));
      ghost.appendChild(copy);
      card.classList.add("mw-lifted");
    });
    this.uncover(press.grab);
    this.root.appendChild(ghost);
    this.say("");
    this.selected = null;
    this.drag = { grab: press.grab, cards: press.cards, ghost, x: press.x, y: press.y, rects, dx: 0, dy: 0, origin, scrolled: { x: 0, y: 0 }, boxes, board, version };
    this.highlight();
  }

  /** Draw the card the lifted ones leave on top with its whole face, as the next view will
   * (and only its strip again, `full` false, when they come back). */
  private uncover(grab: Grab, full = true): void {
    const cards = this.board.cards(grab.source);
    const under = cards[cards.length - grab.count - 1];
    if (under?.dataset.card) setCard(under, under.dataset.card, full);
  }

  private moveGhost(e: PointerEvent): void {
    const d = this.drag!;
    d.dx = e.clientX - d.x;
    d.dy = e.clientY - d.y;
    this.placeGhost(d);
  }

  /** Move the ghost by the pointer's travel, less the root's own (no layout read: a move
   * of the pointer is the hot path). */
  private placeGhost(d: Drag): void {
    d.ghost.style.transform = `translate(${d.dx - d.scrolled.x}px, ${d.dy - d.scrolled.y}px)`;
  }

  /** The page scrolled under the drag: measure how far the root went, keep the ghost put. */
  private followScroll(d: Drag): void {
    const now = originOf(this.root);
    d.scrolled = { x: now.x - d.origin.x, y: now.y - d.origin.y };
    this.placeGhost(d);
  }

  private drop(drag: Drag, e: PointerEvent): void {
    const target = this.dropTarget(drag, e);
    if (!target || target === drag.grab.source) return this.returnGhost(drag);
    this.request(drag.grab, target); // first: the answer is what the player waits for
    const timer = window.setTimeout(() => this.expirePending(), 5000);
    this.pending = { drag, rev: this.view?.rev ?? 0, timer };
    this.drag = null;
    // Leave the page as it is until Python answers: no restyle or repaint competes with
    // the answer on the main thread (the highlights go with the next view).
  }

  /** The pile under the pointer, else the legal pile the dragged card overlaps most. */
  private dropTarget(drag: Drag, e: PointerEvent): string | null {
    const boxes = this.boxesNow(drag);
    const under = [...boxes].find(([, r]) => inside(r, e.clientX, e.clientY));
    if (under) return under[0];
    const r0 = drag.rects[0];
    const top = new DOMRect(r0.x + drag.dx, r0.y + drag.dy, r0.width, r0.height); // the ghost's
    let best: string | null = null;
    let bestArea = 0;
    for (const name of this.targetsOf(drag.grab)) {
      const r = boxes.get(name);
      if (!r) continue;
      const w = Math.min(r.right, top.right) - Math.max(r.left, top.left);
      const h = Math.min(r.bottom, top.bottom) - Math.max(r.top, top.top);
      if (w > 0 && h > 0 && w * h > bestArea) [best, bestArea] = [name, w * h];
    }
    return best;
  }

  /** The piles' boxes on screen now: those of the drag's start moved as far as the board
   * (the page scrolled, the notebook reflowed), or measured afresh if the board was
   * redrawn or resized since (a view from Python, a narrower window). */
  private boxesNow(drag: Drag): Map<string, DOMRect> {
    const now = this.board.el.getBoundingClientRect();
    const then = drag.board;
    if (drag.version !== this.board.version || now.width !== then.width || now.height !== then.height) {
      return this.board.boxes();
    }
    const [x, y] = [now.x - then.x, now.y - then.y];
    return new Map([...drag.boxes].map(([name, r]) => [name, new DOMRect(r.x + x, r.y + y, r.width, r.height)]));
  }

  private expirePending(): void {
    if (!this.pending) return;
    this.returnGhost(this.pending.drag);
    this.pending = null;
  }

  private returnGhost(drag: Drag): void {
    this.drag = null;
    this.highlight();
    springBack(drag.ghost, () => {
      this.dropGhost(drag);
      this.coverAgain(drag);
    });
  }

  /** The cards came back onto the one they uncovered: it shows its strip again (unless a
   * view redrew the pile meanwhile). */
  private coverAgain(drag: Drag): void {
    const cards = this.board.cards(drag.grab.source);
    const onTop = cards.slice(cards.length - drag.cards.length);
    if (onTop.length && onTop.every((card, i) => card === drag.cards[i])) this.uncover(drag.grab, false);
  }

  private dropGhost(drag: Drag): void {
    drag.ghost.remove();
    for (const c of drag.cards) c.classList.remove("mw-lifted");
  }

  // ------------------------------------------------------------------ keyboard
  private onKey(e: KeyboardEvent): void {
    const tag = (e.target as HTMLElement).tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) return;
    const action = this.keyAction(e);
    if (!action) return;
    e.preventDefault();
    e.stopPropagation();
    action();
  }

  private keyAction(e: KeyboardEvent): (() => void) | null {
    const simple: Record<string, Request["type"]> = { d: "deal", u: "undo", z: "undo", y: "redo", h: "hint", a: "auto", f: "finish" };
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (simple[key]) return () => this.send({ type: simple[key] } as Request);
    const at = locate(this.active);
    switch (key) {
      case "Escape":
        return () => (this.drag ? this.cancelDrag(this.drag) : this.select(null));
      case "Enter":
      case " ":
        if (e.shiftKey) return null; // Shift+Enter is "run the cell" to a notebook hand: nothing
        return (e.target as HTMLElement).tagName === "BUTTON" || !at ? null : () => this.activate(at.pile, at.index);
      case "ArrowLeft":
      case "ArrowRight":
        return () => this.focusPile(at?.pile ?? null, key === "ArrowRight" ? 1 : -1);
      case "ArrowUp":
      case "ArrowDown":
        return () => this.focusUpDown(at, key === "ArrowUp" ? -1 : 1);
      case "Home":
      case "End":
        return at ? () => this.focusRowEnd(at.pile, key === "End") : null;
      default:
        return null;
    }
  }

  private activate(pile: string, index: number | null): void {
    if (this.selected || pile === "stock") {
      this.keyboardMove = this.selected !== null && pile !== this.selected.source;
      return this.click(pile, index);
    }
    const grab = this.grabAt(pile, index);
    if (grab) this.holdTheSearch();
    this.select(grab);
  }

  /** A card picked up while the kernel searches: the search waits for its move, so the
   * move's round trip has the processor to itself (milligan_widget/widget/assistant/jobs.py). */
  private holdTheSearch(): void {
    if (this.searching) this.send({ type: "hold" });
  }

  /** After a move made from the keyboard, put the focus on the card that moved. */
  private followMove(view: GameView): void {
    const wanted = this.keyboardMove;
    this.keyboardMove = false;
    if (!wanted || !view.last || view.last.source === "stock" || isRefusal(view.kind)) return;
    movedCards(this.board, view.last)[0]?.focus({ preventScroll: true });
    const [target] = view.last.targets;
    if (target) this.announce(`Moved ${heldWords(view.last.cards)} to ${orWords([target])}.`);
  }

  /** The focus on a pile's stop: its top card, or the pile itself while it shows none. */
  private focusTop(pile: string): void {
    const cards = this.board.cards(pile);
    (cards[cards.length - 1] ?? this.board.pile(pile))?.focus();
  }

  /** Left and Right: the next pile in the Tab order (every pile, round the board). */
  private focusPile(current: string | null, step: number): void {
    const order = this.board.order;
    const i = current ? order.indexOf(current) : -1;
    this.focusTop(i < 0 ? order[step > 0 ? 0 : order.length - 1] : order[(i + step + order.length) % order.length]);
  }

  /** Up and Down: along the cards that can be picked up in a pile (Up: deeper into the run),
   * and past its end to the pile above or below (the row of the stock, the foundations, the
   * columns, and round again). A covered card only steps to its neighbour that can move. */
  private focusUpDown(at: Place | null, step: number): void {
    if (!at) return this.focusPile(null, 1);
    const cards = this.board.cards(at.pile);
    if (at.index !== null) {
      const next = cards[at.index + step];
      if (next?.classList.contains("mw-movable")) return next.focus();
      if (!cards[at.index]?.classList.contains("mw-movable")) return;
    }
    this.focusTop(this.pileAcross(at.pile, step));
  }

  /** The pile in the next row up or down (round the board) nearest below or above `pile`. */
  private pileAcross(pile: string, step: number): string {
    const rows = this.board.rows.filter((row) => row.length);
    const r = rows.findIndex((row) => row.includes(pile));
    const row = rows[(r + step + rows.length) % rows.length];
    const x = centreX(this.board.pile(pile));
    const distance = (name: string): number => Math.abs(centreX(this.board.pile(name)) - x);
    return row.reduce((best, name) => (distance(name) < distance(best) ? name : best));
  }

  /** Home and End: the first or the last pile of the focused pile's row. */
  private focusRowEnd(pile: string, last: boolean): void {
    const row = this.board.rows.find((r) => r.includes(pile));
    if (row?.length) this.focusTop(row[last ? row.length - 1 : 0]);
  }

  private rememberFocus(): void {
    const active = this.active;
    const at = active && this.root.contains(active) ? locate(active) : null;
    this.focusBefore = at && { el: active!, ring: active!.matches(":focus-visible"), ...at };
  }

  /** Keep the focus in the game across a redraw: on the same element if it is still here
   * (a card that moved to another pile, moved where `moveBefore` is unknown), else on the
   * top card of the pile it was in. */
  private restoreFocus(): void {
    const was = this.focusBefore;
    const active = this.active;
    if (!was || (active && this.root.contains(active))) return;
    if (was.el instanceof HTMLElement && this.root.contains(was.el)) {
      return was.el.focus({ preventScroll: true, focusVisible: was.ring } as FocusOptions);
    }
    const cards = this.board.cards(was.pile);
    (cards[cards.length - 1] ?? this.board.pile(was.pile))?.focus();
  }
}
