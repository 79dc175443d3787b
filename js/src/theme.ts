/** Light or dark: the `theme` trait when it says so, else whatever the host shows. */

export type ThemeChoice = "auto" | "light" | "dark";
export type Theme = "light" | "dark";

const DARK_QUERY = "(prefers-color-scheme: dark)";

/** The host's theme: JupyterLab's `data-jp-theme-light`, VS Code's and marimo's body
 * classes, else the browser's colour-scheme preference. */
export function hostTheme(): Theme {
  const body = document.body;
  const html = document.documentElement;
  const jupyter = body.dataset.jpThemeLight;
  if (jupyter === "true" || jupyter === "false") return jupyter === "true" ? "light" : "dark";
  const has = (name: string): boolean => body.classList.contains(name) || html.classList.contains(name);
  if (has("vscode-dark") || has("vscode-high-contrast")) return "dark";
  if (has("vscode-light")) return "light";
  if (has("dark") || has("dark-theme")) return "dark";
  if (has("light") || has("light-theme")) return "light";
  return typeof matchMedia === "function" && matchMedia(DARK_QUERY).matches ? "dark" : "light";
}

/** Keeps `data-theme` on the root up to date as the host switches themes. In JupyterLab
 * (auto) `data-jp-vars` also tells the styles to take JupyterLab's own colours. */
export class ThemeWatcher {
  private readonly observer = new MutationObserver(() => this.apply());
  private readonly media = typeof matchMedia === "function" ? matchMedia(DARK_QUERY) : null;
  private readonly onMedia = (): void => this.apply();

  constructor(
    private readonly root: HTMLElement,
    private readonly choice: () => ThemeChoice,
  ) {
    const watched = { attributes: true, attributeFilter: ["class", "data-jp-theme-light"] };
    this.observer.observe(document.body, watched);
    this.observer.observe(document.documentElement, watched);
    this.media?.addEventListener("change", this.onMedia);
    this.apply();
  }

  apply(): void {
    const choice = this.choice();
    const theme = choice === "light" || choice === "dark" ? choice : hostTheme();
    if (this.root.dataset.theme !== theme) this.root.dataset.theme = theme;
    const jupyter = choice === "auto" && document.body.dataset.jpThemeLight !== undefined;
    this.root.toggleAttribute("data-jp-vars", jupyter);
  }

  destroy(): void {
    this.observer.disconnect();
    this.media?.removeEventListener("change", this.onMedia);
  }
}
