/** The sheets that open over the felt on request: Statistics and Open; and the offer to
 * resume the game auto-saved before, beside the message line. Python sends their data
 * (traits `statistics` and `files`, the view's `resume`); nothing here reads a file. */

import { el, formatTime, makeButton } from "./dom";
import type { FilesView, GameView, PresetStats, Request, StatisticsView } from "./types";

type Send = (req: Request) => void;

function button(label: string, role: string, title: string): HTMLButtonElement {
  return makeButton(label, title, { role });
}

function clock(seconds: number | null): string {
  return seconds == null ? "–" : formatTime(seconds);
}

function percent(value: number | null): string {
  return value == null ? "–" : `${Math.round(value * 100)}%`;
}

function rate(line: PresetStats): string {
  if (line.win_rate == null) return "–";
  return `${percent(line.win_rate)} (${percent(line.win_rate_low)}–${percent(line.win_rate_high)})`;
}

const COLUMNS: [string, (line: PresetStats) => string][] = [
  ["Rules", (line) => line.preset.replace(/-/g, " ")],
  ["Played", (line) => String(line.played)],
  ["Won", (line) => String(line.won)],
  ["Win rate (95%)", rate],
  // Fair play and peeking apart: the games played with Peek on, and won.
  ["Peeked (won)", (line) => `${line.peeked} (${line.won_peeking})`],
  // The games played with the live coach on, and won (honest help: not peeked).
  ["Coached (won)", (line) => `${line.coached ?? 0} (${line.won_coached ?? 0})`],
  ["Streak", (line) => `${line.current_streak} (best ${line.best_streak})`],
  ["Best time", (line) => clock(line.best_time)],
  ["Fewest moves", (line) => (line.fewest_moves == null ? "–" : String(line.fewest_moves))],
];

export class Sheets {
  readonly stats = el("section", "mw-sheet mw-stats-sheet");
  readonly files = el("section", "mw-sheet mw-files-sheet");
  /** The message line and, under it, the offer to resume. */
  readonly offer = el("div", "mw-offer");
  private readonly offerText = el("span", "mw-offer-text");

  constructor(private readonly send: Send) {
    for (const sheet of [this.stats, this.files]) {
      sheet.hidden = true;
      sheet.setAttribute("role", "dialog");
      sheet.addEventListener("click", (e) => this.onClick(e));
    }
    this.stats.setAttribute("aria-label", "Statistics");
    this.files.setAttribute("aria-label", "Open a saved game");
    this.offer.hidden = true;
    this.offer.dataset.role = "resume";
    const yes = button("Resume", "resume-yes", "Take up your last game where you left it");
    const no = button("No thanks", "resume-no", "Play the new deal");
    this.offer.append(this.offerText, yes, no);
    this.offer.addEventListener("click", (e) => this.onClick(e));
  }

  /** Esc closes an open sheet; true if one was open. */
  close(): boolean {
    const open = !this.stats.hidden || !this.files.hidden;
    this.stats.hidden = this.files.hidden = true;
    return open;
  }

  render(view: GameView): void {
    const text = view.mode === "play" ? view.resume ?? null : null;
    this.offer.hidden = text == null;
    if (text != null && this.offerText.textContent !== text) this.offerText.textContent = text;
  }

  showStatistics(data: StatisticsView | Record<string, never>): void {
    if (!("presets" in data)) return;
    const table = el("table", "mw-stats-table");
    const head = el("tr", "");
    head.append(...COLUMNS.map(([name]) => el("th", "", name)));
    table.append(head);
    for (const line of data.presets) {
      const row = el("tr", "");
      row.dataset.preset = line.preset;
      row.append(...COLUMNS.map(([, value]) => el("td", "", value(line))));
      table.append(row);
    }
    const recent = el("ol", "mw-recent");
    for (const game of data.recent) {
      const moves = `${game.moves} move${game.moves === 1 ? "" : "s"}`;
      const result = `${game.result}, ${moves}, ${clock(game.seconds)}${game.peek ? ", peeked" : ""}${game.coached ? ", coached" : ""}`;
      recent.append(el("li", "", `${game.deal} (${game.preset.replace(/-/g, " ")}): ${result}`));
    }
    const parts: HTMLElement[] = [el("h3", "", "Statistics")];
    if (data.problem) parts.push(el("p", "mw-problem", data.problem));
    if (data.played) parts.push(table, el("h4", "", "Latest games"), recent);
    else if (!data.problem) parts.push(el("p", "", "No game counted yet: every game won, lost or left counts."));
    this.open(this.stats, parts);
  }

  showFiles(data: FilesView): void {
    if (!data.entries) return;
    const list = el("ul", "mw-file-list");
    for (const entry of data.entries) {
      const item = el("li", "");
      const deal = entry.deal != null ? `deal #${entry.deal}` : "a game";
      const open = button(entry.name, "open-file", `Open ${entry.name}`);
      open.dataset.name = entry.name;
      item.append(open, el("span", "mw-file-about", ` ${deal} · ${entry.rules} · ${entry.moves} moves · ${entry.status} · ${entry.date}`));
      list.append(item);
    }
    const parts: HTMLElement[] = [el("h3", "", "Open a saved game"), el("p", "mw-folder", data.folder ?? "")];
    parts.push(data.entries.length ? list : el("p", "", "No saved game in this folder yet: Save puts one here."));
    this.open(this.files, parts);
  }

  private open(sheet: HTMLElement, parts: HTMLElement[]): void {
    this.stats.hidden = this.files.hidden = true;
    sheet.replaceChildren(button("✕", "close-sheet", "Close (Esc)"), ...parts);
    sheet.hidden = false;
    sheet.querySelector<HTMLButtonElement>('[data-role="close-sheet"]')!.focus({ preventScroll: true });
  }

  private onClick(e: Event): void {
    const target = (e.target as HTMLElement).closest<HTMLButtonElement>("button[data-role]");
    if (!target) return;
    const role = target.dataset.role;
    if (role === "close-sheet") this.close();
    else if (role === "open-file") {
      this.close();
      this.send({ type: "open", name: target.dataset.name! });
    } else if (role === "resume-yes" || role === "resume-no") {
      this.offer.hidden = true;
      this.send({ type: "resume", on: role === "resume-yes" });
    }
  }
}
