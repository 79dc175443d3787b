/** Cards drawn with CSS: corner indices, real pip layouts, framed court cards. */
import type { Suit } from "./types";

export const SUIT_NAME: Record<Suit, string> = { C: "clubs", S: "spades", H: "hearts", D: "diamonds" };
const RANK_NAME: Record<string, string> = { A: "Ace", J: "Jack", Q: "Queen", K: "King" };

/** Pip positions (x%, y%, flipped) for 1..10, on the card's inner field. */
const PIPS: Record<number, [number, number, boolean][]> = {
  2: [[50, 10, false], [50, 90, true]],
  3: [[50, 10, false], [50, 50, false], [50, 90, true]],
  4: [[25, 10, false], [75, 10, false], [25, 90, true], [75, 90, true]],
  5: [[25, 10, false], [75, 10, false], [50, 50, false], [25, 90, true], [75, 90, true]],
  6: [[25, 10, false], [75, 10, false], [25, 50, false], [75, 50, false], [25, 90, true], [75, 90, true]],
  7: [[25, 10, false], [75, 10, false], [50, 30, false], [25, 50, false], [75, 50, false], [25, 90, true], [75, 90, true]],
  8: [[25, 10, false], [75, 10, false], [50, 30, false], [25, 50, false], [75, 50, false], [50, 70, true], [25, 90, true], [75, 90, true]],
  9: [[25, 10, false], [75, 10, false], [25, 37, false], [75, 37, false], [50, 50, false], [25, 63, true], [75, 63, true], [25, 90, true], [75, 90, true]],
  10: [[25, 10, false], [75, 10, false], [50, 23, false], [25, 37, false], [75, 37, false], [25, 63, true], [75, 63, true], [50, 77, true], [25, 90, true], [75, 90, true]],
};

export interface CardCode {
  rank: string;
  suit: Suit;
}

/** What a card code may be: a rank (A, 2-10, J, Q, K) and a suit (C, S, H, D). */
const CODE = /^(?:[A2-9JQK]|10)[CSHD]$/;

/** A card code's rank and suit; anything else (never sent by Python) becomes a blank card,
 * so no other text ever reaches the card's HTML. */
export function parseCode(code: string): CardCode {
  if (!CODE.test(code)) return { rank: "?", suit: "S" };
  return { rank: code.slice(0, -1), suit: code.slice(-1) as Suit };
}

export function cardName(code: string): string {
  const { rank, suit } = parseCode(code);
  return `${RANK_NAME[rank] ?? rank} of ${SUIT_NAME[suit]}`;
}

function rankValue(rank: string): number {
  return rank === "A" ? 1 : Number(rank);
}

/** A suit sign drawn as a vector mask (no font, no text shaping), coloured by the card. */
const SUIT = (extra = "", style = ""): string =>
  `<i class="mw-suit${extra}"${style ? ` style="${style}"` : ""}></i>`;

function centre(rank: string): string {
  if (rank === "J" || rank === "Q" || rank === "K") {
    return `<span class="mw-court"><span class="mw-court-rank" data-rank="${rank}"></span>${SUIT(" mw-court-suit")}</span>`;
  }
  const n = rankValue(rank);
  if (n === 1) return SUIT(" mw-ace");
  if (!PIPS[n]) return ""; // not a card: a blank face
  const pips = PIPS[n]
    .map(([x, y, flip]) => SUIT(` mw-pip${flip ? " mw-flip" : ""}`, `left:${x}%;top:${((y - 10) * 1.25).toFixed(1)}%`))
    .join("");
  return `<span class="mw-field">${pips}</span>`;
}

const cache = new Map<string, string>();

/** Inner HTML of a face-up card (cached). A covered card (`full` false) shows only its
 * index strip, which keeps a 104-card layout light to build and to lay out. */
function cardHTML(code: string, full = true): string {
  const { rank, suit } = parseCode(code);
  const key = full ? `${rank}${suit}` : `${rank}${suit}-`;
  let html = cache.get(key);
  if (html === undefined) {
    html = `<span class="mw-idx mw-tl"><b>${rank}</b>${SUIT()}</span>${SUIT(" mw-corner-suit")}`;
    // The rank's copies (the lower index, a court card's letter) are drawn by the style: the
    // card's text is its rank once, as its name says it ("7 of hearts", not "7 7").
    if (full) html += centre(rank) + `<span class="mw-idx mw-br"><b data-rank="${rank}"></b>${SUIT()}</span>`;
    cache.set(key, html);
  }
  return html;
}

const faces = new Map<string, HTMLTemplateElement>();

/** A copy of a card's face, parsed once per card and cloned after: parsing HTML on every
 * move cost more than the rest of a move's redraw together. */
function face(code: string, full: boolean): DocumentFragment {
  const key = `${code}${full ? "" : "-"}`;
  let template = faces.get(key);
  if (!template) {
    template = document.createElement("template");
    template.innerHTML = cardHTML(code, full);
    faces.set(key, template);
  }
  return template.content.cloneNode(true) as DocumentFragment;
}

/** A new face-up card element with the `data-card` test hook. */
export function makeCard(code: string, full = true): HTMLElement {
  const el = document.createElement("div");
  setCard(el, code, full);
  return el;
}

/** Turn an element into the card `code` (reused elements keep their identity). A card
 * that is covered keeps the face it has (the style shows only its strip), so covering one
 * on a move rewrites nothing but an attribute. */
export function setCard(el: HTMLElement, code: string, full = true): void {
  const shows = full ? "1" : "0";
  if (el.dataset.card === code) {
    if (full && el.dataset.face !== "full") {
      el.replaceChildren(face(code, true));
      el.dataset.face = "full";
    }
    if (el.dataset.full !== shows) el.dataset.full = shows;
    return;
  }
  const { suit } = parseCode(code);
  el.className = `mw-card mw-s${suit}`;
  el.dataset.card = code;
  el.dataset.full = shows;
  el.dataset.face = full ? "full" : "strip";
  el.replaceChildren(face(code, full));
}
