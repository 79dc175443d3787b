/** Short FLIP animations for moves and deals; nothing moves under prefers-reduced-motion. */
import type { Board } from "./board";
import type { LastMove } from "./types";

const DURATION = 160;

export function reducedMotion(): boolean {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** Where the moving cards were before the view changed. */
export type Snapshot = DOMRect[];

/** Record the on-screen boxes of the cards `last` moves (or of a dragged ghost). */
export function capture(board: Board, last: LastMove | null, ghost: DOMRect[] | null): Snapshot {
  if (!last || last.source === "stock" || reducedMotion()) return [];
  if (ghost && ghost.length === last.cards.length) return ghost;
  const cards = board.cards(last.source);
  return cards.slice(cards.length - last.cards.length).map((c) => c.getBoundingClientRect());
}

/** Slide the moved cards from where they were to where they are now. */
export function play(board: Board, last: LastMove | null, before: Snapshot): void {
  if (!last || reducedMotion()) return;
  if (last.source === "stock") return dealIn(board);
  if (!before.length) return;
  const moved = movedCards(board, last);
  moved.forEach((card, i) => slide(card, before[i], card.getBoundingClientRect(), 0));
}

/** The cards `last` moved, where they are now. */
export function movedCards(board: Board, last: LastMove): HTMLElement[] {
  const n = last.cards.length;
  for (const target of last.targets) {
    const cards = board.cards(target);
    const tail = cards.slice(cards.length - n);
    if (tail.length === n && tail.every((c, i) => c.dataset.card === last.cards[i])) return tail;
  }
  return [];
}

function dealIn(board: Board): void {
  const stock = board.pile("stock")?.getBoundingClientRect();
  if (!stock) return;
  board.order
    .filter((name) => name.startsWith("t"))
    .forEach((name, i) => {
      const cards = board.cards(name);
      const top = cards[cards.length - 1];
      if (top) slide(top, stock, top.getBoundingClientRect(), i * 25);
    });
}

const flights = new WeakMap<HTMLElement, Animation>();

/** Slide a card in from `from`. A card in flight takes no clicks (an inline style, which
 * survives the card being redrawn by the next view): a quick second click on the stock
 * must reach the stock, not a card still leaving it. A press elsewhere on the board lands
 * it at once (`landAll`), so the card just dealt can be picked up where it is going. */
function slide(card: HTMLElement, from: DOMRect | undefined, to: DOMRect, delay: number): void {
  if (!from) return;
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return;
  card.style.pointerEvents = "none";
  card.dataset.flying = "1";
  const anim = card.animate(
    [{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 50 }, { transform: "translate(0, 0)", zIndex: 50 }],
    { duration: DURATION, delay, easing: "cubic-bezier(.2,.7,.3,1)", fill: "backwards" },
  );
  flights.set(card, anim);
  const landed = (): void => {
    if (flights.get(card) === anim) touchDown(card); // else a newer flight goes on
  };
  anim.onfinish = landed;
  anim.oncancel = landed;
}

/** The card is in its place and takes clicks again. */
function touchDown(card: HTMLElement): void {
  flights.delete(card);
  card.style.pointerEvents = "";
  delete card.dataset.flying;
}

/** End the flight of a card that a new view puts in another pile, at once (the cancel
 * event comes a frame later): it slid from a place that means nothing there, and it would
 * not take a click until it landed. */
export function land(card: HTMLElement): void {
  const flight = flights.get(card);
  if (!flight) return;
  touchDown(card);
  flight.cancel();
}

/** Land at once every card in flight on `board` (a press on the board, not on the stock,
 * is meant for the cards where they are going); true if one was flying. */
export function landAll(board: HTMLElement): boolean {
  const flying = board.querySelectorAll<HTMLElement>("[data-flying]");
  flying.forEach(land);
  return flying.length > 0;
}

/** Send a refused ghost back to where it came from, then call `done`. */
export function springBack(ghost: HTMLElement, done: () => void): void {
  if (reducedMotion()) return done();
  const anim = ghost.animate(
    [{ transform: ghost.style.transform }, { transform: "translate(0px, 0px)" }],
    { duration: 220, easing: "cubic-bezier(.3,1.4,.5,1)" },
  );
  anim.onfinish = done;
  anim.oncancel = done;
}

/** Turn the cards that came face up over, as a player's hand does (not under reduced motion). */
export function flipUp(cards: HTMLElement[]): void {
  if (reducedMotion()) return;
  for (const card of cards) {
    card.animate([{ transform: "perspective(600px) rotateY(90deg)" }, { transform: "none" }], {
      duration: DURATION * 1.5,
      easing: "ease-out",
    });
  }
}
