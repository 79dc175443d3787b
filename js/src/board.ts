/** The layout: pile elements (built once per rules) and their cards (synced per view). */
import { land } from "./animate";
import { cardName, makeCard, setCard, SUIT_NAME } from "./cards";
import type { GameView, RulesInfo, Suit } from "./types";

const PILE_LABEL: Record<string, string> = { t: "column", f: "foundation", c: "cell" };

/** Below this card width (px) a card shows its rank large and no pips (styles.css:
 * .mw-small-cards), and a covered card keeps a strip high enough to read its rank. */
export const SMALL_CARD = 48;
/** The strip (px) a covered small card keeps in a column: its rank stays readable, and a
 * long column grows taller instead. */
const SMALL_STRIP = 14;

/** Plain words for a pile name: "column 3", "foundation 5", "stock", "reserve". */
export function pileLabel(pile: string): string {
  const kind = PILE_LABEL[pile[0]];
  return kind && /^\w\d+$/.test(pile) ? `${kind} ${pile.slice(1)}` : pile;
}

/** What a screen reader says of a face-up card: "7 of hearts, column 3, movable" (a card
 * that can be picked up, with the cards on it), "…, covered", or on a foundation (`movable`
 * null) "King of hearts, foundation 3". */
export function cardLabel(code: string, where: string, movable: boolean | null): string {
  const state = movable === null ? "" : movable ? ", movable" : ", covered";
  return `${cardName(code)}, ${where}${state}`;
}

/** A card that can be picked up is a toggle button (pressed: held, aria-pressed); a
 * foundation's top card a button (Enter drops the card held on it); a covered card an image. */
function setRole(el: HTMLElement, movable: boolean, home: boolean): void {
  el.setAttribute("role", movable ? "button" : "img");
  if (movable && !home) {
    if (!el.hasAttribute("aria-pressed")) el.setAttribute("aria-pressed", "false");
  } else el.removeAttribute("aria-pressed");
}

function div(className: string, parent?: HTMLElement): HTMLElement {
  const el = document.createElement("div");
  el.className = className;
  parent?.appendChild(el);
  return el;
}

/** `moveBefore` moves an element and keeps its state (focus above all: losing and taking
 * the focus runs JupyterLab's focus handlers, about 1 ms each). Chromium 133+ has it. */
interface MovingParent extends HTMLElement {
  moveBefore?: (node: Node, child: Node | null) => void;
}

interface PileDraw {
  pile: string;
  data: unknown[];
  cards: string[];
  draw: () => void;
}

interface Written {
  index?: number;
  label?: string;
  top?: string;
  left?: string;
}

export class Board {
  readonly el: HTMLElement;
  readonly piles = new Map<string, HTMLElement>();
  /** Pile names in keyboard order. */
  order: string[] = [];
  /** The rows of piles, top to bottom (the stock's row, the foundations, the columns): Up
   * and Down go from one to the next. */
  rows: string[][] = [];
  /** Card width in px (set from the container width). */
  cardWidth = 80;
  /** Counts the redraws that changed a pile: boxes measured before are stale once it moves. */
  version = 0;
  private rules: RulesInfo | null = null;
  /** What each pile last drew: piles whose data did not change are left alone. */
  private readonly drawn = new Map<string, string>();
  /** What was last written to each card element: a pile that changed rewrites only the
   * cards that did (a move touches two or three cards, not every card of both columns). */
  private readonly written = new WeakMap<HTMLElement, Written>();
  /** Card elements that left their pile in the view being drawn, by card code. */
  private readonly released = new Map<string, HTMLElement[]>();

  constructor(parent: HTMLElement) {
    this.el = div("mw-board", parent);
  }

  get cardHeight(): number {
    return Math.round(this.cardWidth * 1.4);
  }

  /** Build the pile elements for a variant; `message` goes beside the stock. */
  build(rules: RulesInfo, message: HTMLElement): void {
    this.rules = rules;
    this.el.replaceChildren();
    this.piles.clear();
    this.drawn.clear();
    this.version++;
    this.order = [];
    this.rows = [];
    this.el.style.setProperty("--mw-cols", String(Math.max(rules.columns, rules.foundations)));
    const side = div("mw-row mw-side", this.el);
    this.addPile(side, "stock", "mw-pile mw-stock");
    if (rules.reserve !== "none") {
      const reserve = this.addPile(side, "reserve", "mw-pile mw-reserve");
      const label = div("mw-pile-label", reserve);
      div("mw-label-name", label).textContent = "Reserve";
      div("mw-label-state", label).dataset.role = "reserve-state";
    }
    for (let i = 1; i <= rules.cells; i++) this.addPile(side, `c${i}`, "mw-pile mw-cell");
    side.appendChild(message);
    const founds = div("mw-row mw-founds", this.el);
    for (let i = 1; i <= rules.foundations; i++) this.addPile(founds, `f${i}`, "mw-pile mw-found");
    const tableau = div("mw-row mw-tableau", this.el);
    for (let i = 1; i <= rules.columns; i++) this.addPile(tableau, `t${i}`, "mw-pile mw-column");
    for (const row of [side, founds, tableau]) {
      this.rows.push(Array.from(row.querySelectorAll<HTMLElement>(":scope > [data-pile]"), (p) => p.dataset.pile!));
    }
  }

  get builtFor(): RulesInfo | null {
    return this.rules;
  }

  private addPile(row: HTMLElement, name: string, className: string): HTMLElement {
    const el = div(className, row);
    el.dataset.pile = name;
    el.tabIndex = 0;
    el.setAttribute("role", "group");
    this.piles.set(name, el);
    this.order.push(name);
    return el;
  }

  pile(name: string): HTMLElement | undefined {
    return this.piles.get(name);
  }

  /** Card elements of a pile, bottom to top. */
  cards(name: string): HTMLElement[] {
    const pile = this.piles.get(name);
    return pile ? (Array.from(pile.children).filter((c) => c.classList.contains("mw-card")) as HTMLElement[]) : [];
  }

  /** Bring every pile in line with the view (only the piles whose data changed). */
  render(view: GameView): void {
    const due = this.draws(view).filter((d) => this.changed(d.pile, ...d.data));
    for (const d of due) this.releaseSurplus(d.pile, d.cards);
    for (const d of due) d.draw();
    for (const els of this.released.values()) for (const el of els) el.remove();
    this.released.clear();
  }

  /** How to draw each pile of the view: what it shows (drawn again only if that changed)
   * and its face-up cards, bottom to top. */
  private draws(view: GameView): PileDraw[] {
    const some = (code: string | null): string[] => (code ? [code] : []);
    const draws = view.columns.map((codes, i): PileDraw => {
      const [pile, run, down] = [`t${i + 1}`, view.runs[i], view.down?.[i] ?? 0];
      return { pile, data: [codes, run, down], cards: codes, draw: () => this.renderColumn(pile, codes, run, down) };
    });
    view.foundations.forEach((f, i) => {
      const pile = `f${i + 1}`;
      draws.push({ pile, data: [f.top, f.n], cards: some(f.top), draw: () => this.renderFoundation(pile, f.suit, f.top, f.n) });
    });
    view.cells.forEach((code, i) => {
      const pile = `c${i + 1}`;
      draws.push({ pile, data: [code], cards: some(code), draw: () => this.renderSingle(pile, code, "free cell") });
    });
    draws.push({ pile: "stock", data: [view.stock, view.can_deal], cards: [], draw: () => this.renderStock(view) });
    if (view.reserve) {
      const data = [view.reserve, view.reserve_open, view.reserve_run];
      draws.push({ pile: "reserve", data, cards: view.reserve, draw: () => this.renderReserve(view) });
    }
    return draws;
  }

  /** Set aside the card elements a pile has beyond its `cards`: the pile a card moves to
   * takes the very element (the one the player dragged, and maybe focused) rather than a
   * new one, and none is removed and made again. What no pile takes is removed. */
  private releaseSurplus(pile: string, cards: string[]): void {
    for (const el of this.cards(pile).slice(cards.length)) {
      const code = el.dataset.card!;
      this.released.set(code, [...(this.released.get(code) ?? []), el]);
    }
  }

  /** A card element for `code` put in `pile` before `before` (at the end if null): one
   * set aside by another pile, moved so it keeps its focus, or a new one. */
  private cardFor(pile: HTMLElement, code: string, before: HTMLElement | null, full: boolean): HTMLElement {
    const el = this.released.get(code)?.shift();
    if (!el) return pile.insertBefore(makeCard(code, full), before);
    try {
      (pile as MovingParent).moveBefore!(el, before);
    } catch {
      pile.insertBefore(el, before); // no moveBefore here: the element moves, the focus goes
    }
    land(el);
    el.style.removeProperty("top"); // its old pile's place: columns and the reserve set their own
    el.style.removeProperty("left");
    this.written.delete(el);
    setCard(el, code, full);
    return el;
  }

  private changed(pile: string, ...data: unknown[]): boolean {
    const key = JSON.stringify([this.cardWidth, data]);
    if (this.drawn.get(pile) === key) return false;
    this.drawn.set(pile, key);
    this.version++;
    return true;
  }

  /** Each pile's box on screen, stretched over its top card (the reserve's fan may reach
   * past its frame): where a drop lands, found without hit-testing the page. */
  boxes(): Map<string, DOMRect> {
    const boxes = new Map<string, DOMRect>();
    for (const [name, pile] of this.piles) {
      const r = pile.getBoundingClientRect();
      const top = pile.lastElementChild?.classList.contains("mw-card") ? pile.lastElementChild.getBoundingClientRect() : r;
      const [left, y] = [Math.min(r.left, top.left), Math.min(r.top, top.top)];
      boxes.set(name, new DOMRect(left, y, Math.max(r.right, top.right) - left, Math.max(r.bottom, top.bottom) - y));
    }
    return boxes;
  }

  private sync(name: string, codes: string[], movableFrom: number): HTMLElement[] {
    const pile = this.piles.get(name)!;
    const existing = this.cards(name);
    const where = pileLabel(name);
    const home = name.startsWith("f");
    const out: HTMLElement[] = [];
    const last = codes.length - 1;
    codes.forEach((code, i) => {
      let el = existing[i];
      if (!el) el = this.cardFor(pile, code, null, i === last);
      else if (el.dataset.card !== code && this.released.get(code)?.length) {
        el = this.cardFor(pile, code, el, i === last);
        existing[i].remove();
      } else setCard(el, code, i === last);
      const movable = i >= movableFrom;
      const label = cardLabel(code, where, home ? null : movable);
      const was = this.written.get(el) ?? {};
      // One Tab stop per pile, its top card, as the arrow keys go (Up and Down reach the
      // cards of a run below it). Written only when it changes: setting it on the focused
      // card, even to the same value, makes the browser lay out the page to check the card
      // can keep the focus. The attribute is compared, not the property: a new card's
      // property reads -1 with no attribute, and without one it cannot take the focus.
      const tab = movable && i === last ? "0" : "-1";
      if (el.getAttribute("tabindex") !== tab) el.setAttribute("tabindex", tab);
      // The class is read back, not remembered: setCard rewrites the class list.
      if (el.classList.contains("mw-movable") !== movable || was.index !== i || was.label !== label) {
        el.classList.toggle("mw-movable", movable);
        el.dataset.index = String(i);
        el.setAttribute("aria-label", label);
        setRole(el, movable, home);
        this.written.set(el, { ...was, index: i, label });
      }
      out.push(el);
    });
    const tab = codes.length ? -1 : 0; // the pile is the Tab stop only while it shows no card
    if (pile.tabIndex !== tab) pile.tabIndex = tab;
    return out;
  }

  /** Put a card (or a card back) at `top`, `left` px in its pile, if it is not there. */
  private place(el: HTMLElement, top: number, left: number): void {
    const was = this.written.get(el) ?? {};
    const [t, l] = [`${Math.round(top)}px`, `${Math.round(left)}px`];
    if (was.top !== t) el.style.top = t;
    if (was.left !== l) el.style.left = l;
    this.written.set(el, { ...was, top: t, left: l });
  }

  /** A column: `down` card backs (face-down cards: Python never says which), then the
   * face-up `codes`, bottom to top. */
  private renderColumn(name: string, codes: string[], run: number, down = 0): void {
    const backs = this.syncBacks(name, down);
    const els = this.sync(name, codes, run);
    const ch = this.cardHeight;
    const total = down + codes.length;
    const step = this.columnStep(total);
    [...backs, ...els].forEach((el, i) => this.place(el, i * step, 0));
    const pile = this.piles.get(name)!;
    pile.style.height = `${Math.round(Math.max(0, total - 1) * step + ch)}px`;
    pile.style.setProperty("--mw-strip-h", `${Math.round(step)}px`);
    pile.classList.toggle("mw-empty", total === 0);
    const faceDown = down ? `, ${down} face down` : "";
    pile.setAttribute("aria-label", `${pileLabel(name)}, ${total ? codes.length + " cards" + faceDown : "empty"}`);
  }

  /** The card backs at the bottom of a column, `down` of them, bottom to top. */
  private syncBacks(name: string, down: number): HTMLElement[] {
    const pile = this.piles.get(name)!;
    const backs = Array.from(pile.querySelectorAll<HTMLElement>(":scope > .mw-down"));
    while (backs.length < down) {
      const back = document.createElement("div");
      back.className = "mw-down";
      back.setAttribute("role", "img");
      back.setAttribute("aria-label", "face-down card");
      pile.prepend(back);
      backs.unshift(back);
    }
    backs.splice(down).forEach((back) => back.remove());
    return backs;
  }

  /** The card that turned face up on top of each column named (the flip to animate). */
  turnedUp(columns: string[]): HTMLElement[] {
    return columns.map((name) => this.cards(name)[0]).filter((card): card is HTMLElement => !!card);
  }

  /** Vertical distance between overlapping cards: shrinks as a column grows tall. */
  columnStep(n: number): number {
    const ch = this.cardHeight;
    const normal = ch * 0.28;
    if (n <= 1) return normal;
    const maxHeight = ch * 4.4;
    const least = this.cardWidth < SMALL_CARD ? Math.min(normal, SMALL_STRIP) : ch * 0.15;
    return Math.max(least, Math.min(normal, (maxHeight - ch) / (n - 1)));
  }

  private renderFoundation(name: string, suit: Suit, top: string | null, n: number): void {
    const pile = this.piles.get(name)!;
    pile.dataset.suit = suit;
    pile.dataset.count = String(n);
    pile.classList.toggle("mw-empty", n === 0);
    pile.classList.toggle("mw-stacked", n > 1);
    pile.classList.toggle("mw-complete", n === 13);
    this.sync(name, top ? [top] : [], 0);
    const onTop = top ? `, ${cardName(top)} on top` : ", empty";
    pile.setAttribute("aria-label", `${pileLabel(name)} (${SUIT_NAME[suit]}), ${n} cards${onTop}`);
  }

  private renderSingle(name: string, code: string | null, label: string): void {
    const pile = this.piles.get(name)!;
    pile.classList.toggle("mw-empty", !code);
    this.sync(name, code ? [code] : [], 0);
    pile.setAttribute("aria-label", `${label} ${name.slice(1)}, ${code ? cardName(code) : "empty"}`);
  }

  private renderStock(view: GameView): void {
    const pile = this.piles.get("stock")!;
    pile.dataset.count = String(view.stock);
    pile.classList.toggle("mw-empty", view.stock === 0);
    pile.classList.toggle("mw-disabled", !view.can_deal);
    pile.setAttribute("role", "button");
    pile.setAttribute("aria-disabled", String(!view.can_deal));
    pile.setAttribute(
      "aria-label",
      view.stock ? `stock, ${view.stock} cards${view.can_deal ? ", press to deal a row" : ""}` : "stock, empty",
    );
    pile.title = view.can_deal ? "Deal a row (d)" : "No deal possible now";
  }

  private renderReserve(view: GameView): void {
    const codes = view.reserve ?? [];
    const els = this.sync("reserve", codes, view.reserve_run);
    const step = this.cardWidth * 0.3;
    els.forEach((el, i) => this.place(el, 0, i * step));
    const pile = this.piles.get("reserve")!;
    pile.style.setProperty("--mw-strip-w", `${Math.round(step)}px`);
    const closed = codes.length === 0 && !view.reserve_open;
    pile.classList.toggle("mw-closed", closed);
    pile.classList.toggle("mw-empty", codes.length === 0);
    const state = pile.querySelector<HTMLElement>('[data-role="reserve-state"]')!;
    state.textContent = closed ? "closed while the stock lasts" : "open: set a card or run aside";
    state.dataset.short = closed ? "closed" : "open";
    pile.setAttribute(
      "aria-label",
      `reserve, ${codes.length ? codes.map(cardName).join(", ") : closed ? "closed" : "open and empty"}`,
    );
  }
}
