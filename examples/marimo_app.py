"""Miss Milligan in marimo: `marimo run examples/marimo_app.py` (or `marimo edit` it).

The second cell shows what Python sees, after every move from the mouse or not. marimo
re-runs a cell that reads `board.value` only when the *browser* changes a synced trait; the
game's moves change `view` from Python, so a `view` observer feeds a `mo.state` instead.
"""

import marimo

__generated_with = "0.25.2"
app = marimo.App()


@app.cell
def _():
    import marimo as mo

    from milligan_widget import MilliganWidget

    widget = MilliganWidget(seed=8)
    board = mo.ui.anywidget(widget)
    get_rev, set_rev = mo.state(widget.view["rev"])
    widget.observe(lambda change: set_rev(change["new"]["rev"]), names="view")
    board  # noqa: B018 (a cell shows its last expression)
    return board, get_rev, mo, widget


@app.cell
def _(get_rev, mo, widget):
    _history = " ".join(str(move) for move in widget.game.history)
    mo.Html(
        '<pre data-python-state="">'
        f"rev {get_rev()}\n"
        f"moves {len(widget.game.history)}\n"
        f"stock {widget.game.stock_count}\n"
        f"history {_history}"
        "</pre>"
    )
    return


if __name__ == "__main__":
    app.run()
