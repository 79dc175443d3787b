/** Small DOM helpers the front end's parts share. */

/** An element with a class name and, optionally, its text. */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = ""): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  if (text) node.textContent = text;
  return node;
}

/** A time played as minutes:seconds ("1:52"). */
export function formatTime(seconds: number): string {
  const s = Math.round(seconds);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** A button (class mw-btn) with a tooltip; `data` names what it does (data-action in the
 * toolbar, data-lesson / data-replay in the panels, data-role in the sheets). */
export function makeButton(label: string, title: string, data: Record<string, string>): HTMLButtonElement {
  const b = el("button", "mw-btn", label);
  b.type = "button";
  b.title = title;
  Object.assign(b.dataset, data);
  return b;
}
