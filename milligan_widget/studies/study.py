"""Win-rate studies: solve many numbered deals and summarise, resumably.

    milligan-study --rules classic --deals 1..1000 --time-limit 10 --workers 2

(or ``python -m milligan_widget.studies.study ...``). Each deal is solved in a worker (local
processes by default; a Dask cluster with ``--scheduler tcp://host:8786`` when
``dask[distributed]`` is installed, and milligan-widget on every Dask worker too). Results are
appended to a CSV file as they arrive, so an interrupted study resumes where it stopped,
and a summary gives the share of winnable, unwinnable and unknown deals with 95% intervals.

The CSV survives any kill: the file is created with its header in one atomic step; each row
is written whole in one write and flushed; on resume a truncated last line (a kill mid-write)
is cut off, damaged rows are skipped and reported, and a deal recorded twice counts once.
SIGTERM (and Ctrl-C) stop the workers too, and a worker whose study process is gone (even
by SIGKILL) stops by itself.
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType
from typing import TypedDict

from milligan_widget.analysis.honest import (
    DEFAULT_PLANNERS,
    ENDGAME_GROWTH,
    PLANNERS,
    default_planner,
)
from milligan_widget.analysis.planner import HALVINGS
from milligan_widget.engine.deals import MAX_DEAL
from milligan_widget.engine.game import Game
from milligan_widget.engine.interval import wilson
from milligan_widget.engine.rules import PRESETS, Rules
from milligan_widget.engine.savefile import write_atomic
from milligan_widget.search.solver import UNKNOWN, UNWINNABLE, WINNABLE, solve

FIELDS = ("rules", "deal", "status", "seconds", "nodes", "moves", "greedy_won")
HEADER = ",".join(FIELDS) + "\n"
#: The columns of a study of a player (``--player greedy`` or ``honest``): one game each.
PLAYED_FIELDS = ("rules", "deal", "player", "won", "status", "foundation_cards", "moves", "seconds")
PLAYED_HEADER = ",".join(PLAYED_FIELDS) + "\n"
PLAYERS = ("thoughtful", "greedy", "honest")
MAX_STUDY_DEALS = 1_000_000  #: the most deals one --deals may name
Report = Callable[[str], None]


class SolvedRow(TypedDict):
    """A row of a study of the solver (:data:`FIELDS`), as it is written."""

    rules: str
    deal: int
    status: str
    seconds: float
    nodes: int
    moves: int
    greedy_won: int


class PlayedRow(TypedDict):
    """A row of a study of a player (:data:`PLAYED_FIELDS`), as it is written."""

    rules: str
    deal: int
    player: str
    won: int
    status: str
    foundation_cards: int
    moves: int
    seconds: float


#: A row as a study writes it.
Row = SolvedRow | PlayedRow
#: A row as it is read back from the CSV file: each field's text, checked (see read_results).
Record = dict[str, str]


def solve_deal(rules: str, deal: int, time_limit: float) -> SolvedRow:
    """One row of a study: the solver's verdict on a deal, and whether greedy play wins it."""
    from milligan_widget.strategy import greedy, play_game

    result = solve(Game.new(deal, rules), time_limit=time_limit)
    greedy_game = play_game(Game.new(deal, rules), greedy)
    return {
        "rules": rules,
        "deal": deal,
        "status": result.status,
        "seconds": round(result.seconds, 3),
        "nodes": result.nodes,
        "moves": len(result.moves),
        "greedy_won": int(greedy_game.status == "won"),
    }


@dataclass(frozen=True)
class Player:
    """Who plays a study's deals: ``thoughtful`` (the solver, which knows the stock),
    ``greedy``, or ``honest`` (:func:`.strategy.honest` with ``samples`` sampled stocks and
    ``node_limit`` positions a solve, and ``time_limit`` seconds a decision if given: without
    one its games do not depend on the machine; ``planner`` names how it judges its lines,
    None for the preset's own (:func:`.analysis.honest.default_planner`), and "next-row"
    plans across the next deal with the planner's default settings). ``seed`` seeds the
    honest player's sampler: each seed draws other samples, so several seeds give the spread
    of its win rate; 0, the default, is left out of the player's name, as in every study
    before there was a choice."""

    kind: str = "thoughtful"
    time_limit: float | None = 10.0
    samples: int = 8
    node_limit: int = 20_000
    planner: str | None = None
    seed: int = 0

    @property
    def label(self) -> str:
        """The ``player`` column: the kind and, for the honest player, its setting."""
        if self.kind == "honest":
            label = f"honest s={self.samples} n={self.node_limit}"
            if self.time_limit is not None:
                label += f" t={self.time_limit:g}"
            if self.planner == "calibrated":
                label += f" calibrated h={HALVINGS}"
            elif self.planner not in ("hop", None):
                label += f" {self.planner}"
            label += f" e={ENDGAME_GROWTH}"
            return f"{label} seed={self.seed}" if self.seed else label
        return self.kind

    def play(self, rules: str, deal: int) -> Row:
        """One row: this player's game of ``deal``."""
        return (
            solve_deal(rules, deal, self.time_limit or 10.0)
            if self.kind == "thoughtful"
            else (play_deal(rules, deal, self))
        )


def play_deal(rules: str, deal: int, player: Player) -> PlayedRow:
    """One row of a player's study: how its game of ``deal`` went and its seconds."""
    from milligan_widget.strategy import greedy, honest, play_game

    strategy = (
        greedy
        if player.kind == "greedy"
        else honest(
            player.samples,
            player.time_limit,
            player.node_limit,
            seed=player.seed,
            planner=player.planner,
        )
    )
    start = time.perf_counter()
    game = play_game(Game.new(deal, rules), strategy)
    return {
        "rules": rules,
        "deal": deal,
        "player": player.label,
        "won": int(game.status == "won"),
        "status": game.status,
        "foundation_cards": game.foundation_count,
        "moves": game.ply,
        "seconds": round(time.perf_counter() - start, 3),
    }


# ----------------------------------------------------------------------------- deal specs


def parse_deals(text: str) -> list[int]:
    """``"1..1000"``, ``"5"`` or ``"1..10,20..30"`` as a list of deal numbers, each once, in
    the order given. A bad spec raises :class:`argparse.ArgumentTypeError` saying why."""
    deals: dict[int, None] = {}
    for part in str(text).split(","):
        first, last = _deal_range(part.strip())
        if len(deals) + (last - first + 1) > MAX_STUDY_DEALS:
            raise argparse.ArgumentTypeError(
                f"{text[:40]!r} names more than {MAX_STUDY_DEALS:,} deals: split the study"
            )
        deals.update(dict.fromkeys(range(first, last + 1)))
    return list(deals)


def _deal_range(part: str) -> tuple[int, int]:
    first, dots, last = part.partition("..")
    if not dots:
        last = first
    if not (_is_number(first) and _is_number(last)):
        raise argparse.ArgumentTypeError(
            f"{part[:40]!r} is not a deal range like 1..1000 (or a deal number like 27)"
        )
    low, high = int(first), int(last)
    if low < 1 or high > MAX_DEAL:
        raise argparse.ArgumentTypeError(
            f"{part!r}: deal numbers run from 1 to 10**20 - 1 (there is no deal 0)"
        )
    if low > high:
        raise argparse.ArgumentTypeError(
            f"{part!r} is an empty range: write the lower number first, as in {high}..{low}"
        )
    return low, high


def _is_number(text: str) -> bool:
    return text.isascii() and text.isdigit() and len(text) <= 20


# ----------------------------------------------------------------------------- summaries


@dataclass(frozen=True)
class Summary:
    """Counts of a study's results, with intervals."""

    rules: str
    deals: int
    winnable: int
    unwinnable: int
    unknown: int
    greedy_won: int

    def lines(self) -> list[str]:
        if not self.deals:
            return [f"{self.rules}: no deals solved yet"]

        def share(count: int) -> str:
            low, high = wilson(count, self.deals)
            interval = f"95% CI {100 * low:.1f}–{100 * high:.1f}%"
            return f"{count:5d}  {100 * count / self.deals:5.1f}%  ({interval})"

        return [
            f"{self.rules}: {self.deals} deals",
            f"  winnable   {share(self.winnable)}",
            f"  unwinnable {share(self.unwinnable)}",
            f"  unknown    {share(self.unknown)}",
            f"  greedy won {share(self.greedy_won)}",
        ]


@dataclass(frozen=True)
class PlayedSummary:
    """A player's games: how many were won, with an interval, and the seconds a game."""

    rules: str
    player: str
    deals: int
    won: int
    seconds: float

    def lines(self) -> list[str]:
        if not self.deals:
            return [f"{self.rules}, {self.player}: no deals played yet"]
        low, high = wilson(self.won, self.deals)
        return [
            f"{self.rules}, {self.player}: {self.deals} deals",
            f"  won {self.won:5d}  {100 * self.won / self.deals:5.1f}%"
            f"  (95% CI {100 * low:.1f}–{100 * high:.1f}%)",
            f"  {self.seconds / self.deals:.2f} s a game",
        ]


def summarise_played(rows: Iterable[Record], rules: str, player: str) -> PlayedSummary:
    mine = [r for r in rows if r["rules"] == rules and r["player"] == player]
    won = sum(int(r["won"]) for r in mine)
    return PlayedSummary(rules, player, len(mine), won, sum(float(r["seconds"]) for r in mine))


def summarise(rows: Iterable[Record], rules: str) -> Summary:
    mine = [r for r in rows if r["rules"] == rules]

    def count(status: str) -> int:
        return sum(1 for r in mine if r["status"] == status)

    greedy = sum(int(r["greedy_won"]) for r in mine)
    return Summary(rules, len(mine), count(WINNABLE), count(UNWINNABLE), count(UNKNOWN), greedy)


# ----------------------------------------------------------------------------- the CSV


class StudyFileError(Exception):
    """The results file is not a study's CSV (its first line is not the header)."""


def _stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _check_row(row: list[str]) -> Record | None:
    """The row as a dict if every field is sound, else None."""
    if len(row) == len(PLAYED_FIELDS):
        return _check_played_row(row)
    if len(row) != len(FIELDS):
        return None
    record = dict(zip(FIELDS, row, strict=True))
    try:
        sound = (
            record["rules"] in PRESETS
            and _is_number(record["deal"])
            and 1 <= int(record["deal"]) <= MAX_DEAL
            and record["status"] in (WINNABLE, UNWINNABLE, UNKNOWN)
            and math.isfinite(float(record["seconds"]))
            and record["nodes"].isdigit()
            and record["moves"].isdigit()
            and record["greedy_won"] in ("0", "1")
        )
    except ValueError:
        return None
    return record if sound else None


def _check_played_row(row: list[str]) -> Record | None:
    record = dict(zip(PLAYED_FIELDS, row, strict=True))
    try:
        sound = (
            record["rules"] in PRESETS
            and _is_number(record["deal"])
            and 1 <= int(record["deal"]) <= MAX_DEAL
            and record["player"].split(" ")[0] in PLAYERS[1:]
            and record["won"] in ("0", "1")
            and record["status"] in ("won", "lost", "playing")
            and record["foundation_cards"].isdigit()
            and record["moves"].isdigit()
            and math.isfinite(float(record["seconds"]))
        )
    except ValueError:
        return None
    return record if sound else None


def _row_key(record: Record) -> tuple[str, int, str]:
    return (record["rules"], int(record["deal"]), record.get("player", "thoughtful"))


def _fields(line: str) -> list[str]:
    try:
        return next(csv.reader([line]), [])
    except csv.Error:
        return []


def read_results(path: Path, report: Report = _stderr) -> list[Record]:
    """The sound rows of a study file, each (rules, deal) once (the first row of it counts);
    a damaged row or a truncated last line is skipped and reported. A missing or empty file
    has none. :class:`StudyFileError` if the file is not a study's CSV at all."""
    if not path.exists():
        return []
    text = path.read_bytes().decode("utf-8", "replace")
    if not text:
        return []
    lines = [line.removesuffix("\r") for line in text.split("\n")]  # older files: CRLF
    if lines[0] + "\n" not in (HEADER, PLAYED_HEADER):
        raise StudyFileError(
            f"{path} is not a study's results file (its first line is not {HEADER.strip()!r} "
            f"or {PLAYED_HEADER.strip()!r}); move it away or choose another --out"
        )
    width = len(FIELDS) if lines[0] + "\n" == HEADER else len(PLAYED_FIELDS)
    if lines[-1]:
        report(f"{path}: the last line was cut off (an interrupted write); it is not counted")
    rows: list[Record] = []
    seen: set[tuple[str, int, str]] = set()
    bad = 0
    for number, line in enumerate(lines[1:-1], start=2):
        fields = _fields(line)
        record = _check_row(fields) if len(fields) == width else None
        if record is None:
            bad += 1
            if bad <= 5:
                report(f"{path}, line {number}: a damaged row, skipped: {line[:60]!r}")
            continue
        key = _row_key(record)
        if key not in seen:
            seen.add(key)
            rows.append(record)
    if bad > 5:
        report(f"{path}: {bad} damaged rows in all were skipped")
    return rows


def _open_for_append(path: Path, header: str = HEADER) -> io.TextIOWrapper:
    """The results file, ready for rows: created with ``header`` in one atomic step if it is
    missing or empty; a truncated last line cut off first, so the next row starts a line."""
    if not path.exists() or path.stat().st_size == 0:
        write_atomic(path, header)
    else:
        with path.open("rb+") as handle:
            data = handle.read()
            end = data.rfind(b"\n") + 1
            if end < len(data):
                handle.truncate(end)
    return path.open("a", newline="", encoding="utf-8")


def _row_text(row: Row) -> str:
    out = io.StringIO()
    names = PLAYED_FIELDS if "player" in row else FIELDS
    fields: Mapping[str, object] = row
    csv.writer(out, lineterminator="\n").writerow([fields[name] for name in names])
    return out.getvalue()


def run_study(
    rules: str,
    deals: list[int],
    time_limit: float | None,
    executor: Executor,
    path: Path,
    progress: bool = True,
    report: Report = _stderr,
    player: Player | None = None,
) -> Summary | PlayedSummary:
    """Play (or solve) every deal not yet in ``path`` and append each result as it arrives.
    ``player`` says who plays (the thoughtful solver with ``time_limit`` by default); its
    results go to a file of their kind (:data:`FIELDS` or :data:`PLAYED_FIELDS`)."""
    player = player or Player("thoughtful", time_limit)
    if player.kind == "honest" and player.planner is None:  # the preset's own, by name
        player = replace(player, planner=default_planner(Rules.named(rules)))
    label = player.label
    rows = read_results(path, report)
    _check_kind(path, rows, player)
    done = {int(r["deal"]) for r in rows if _row_key(r)[::2] == (rules, label)}
    todo = [deal for deal in dict.fromkeys(deals) if deal not in done]
    header = HEADER if player.kind == "thoughtful" else PLAYED_HEADER
    with _open_for_append(path, header) as handle:
        for row in _as_they_come(executor, rules, todo, player, progress, report):
            handle.write(_row_text(row))  # one write: a row lands whole or not at all
            handle.flush()
            os.fsync(handle.fileno())
    wanted = set(deals)
    quiet = lambda text: None  # noqa: E731  (already reported above)
    mine = [r for r in read_results(path, quiet) if int(r["deal"]) in wanted]
    if player.kind == "thoughtful":
        return summarise(mine, rules)
    return summarise_played(mine, rules, label)


def _check_kind(path: Path, rows: list[Record], player: Player) -> None:
    if not path.exists() or not path.stat().st_size:
        return
    played = path.open("rb").readline().decode("utf-8", "replace") == PLAYED_HEADER
    if played != (player.kind != "thoughtful"):
        kind = "a player's games" if played else "the solver's verdicts"
        raise StudyFileError(
            f"{path} holds {kind}, not {player.kind} results: choose another --out"
        )


def _as_they_come(
    executor: Executor,
    rules: str,
    deals: list[int],
    player: Player,
    progress: bool,
    report: Report,
) -> Iterator[Row]:
    futures: dict[Future[Row], int] = {
        executor.submit(player.play, rules, deal): deal for deal in deals
    }
    finished = as_completed(futures)
    if progress:
        from tqdm.auto import tqdm  # no type hints: Any (see pyproject.toml)

        name = rules if player.kind == "thoughtful" else f"{rules} {player.kind}"
        finished = tqdm(finished, total=len(futures), desc=name, unit="deal")
    try:
        for future in finished:
            try:
                yield future.result()
            except Exception as error:  # one deal's failure does not lose the others
                report(f"{rules} deal {futures[future]} failed and is not recorded: {error}")
    finally:
        for future in futures:
            future.cancel()


# ----------------------------------------------------------------------------- workers


def _watch_parent() -> None:
    """In a worker: end this process as soon as its parent is gone: the study process (killed,
    even by SIGKILL), or the fork server that made it, which ends with the study. The worker is
    then handed to another parent, and a watch thread notices."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.2)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="watch-study-process").start()


def make_executor(workers: int, scheduler: str | None) -> Executor:
    if scheduler:
        try:
            from dask.distributed import Client
        except ImportError:
            raise SystemExit(
                "--scheduler needs Dask: pip install 'milligan-widget[dask]'"
            ) from None
        executor: Executor = Client(scheduler).get_executor()  # Dask's, a futures Executor
        return executor
    return ProcessPoolExecutor(max_workers=workers, initializer=_watch_parent)


def _stop_workers(executor: Executor) -> None:
    """Cancel what is queued and end the worker processes now (not after their deal)."""
    try:
        executor.shutdown(wait=False, cancel_futures=True)
    except TypeError:  # an executor without cancel_futures (Dask's, in old versions)
        executor.shutdown(wait=False)
    processes = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.terminate()
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.join(2)


class _Terminated(BaseException):
    """SIGTERM arrived: stop, keep what is written."""


def _on_sigterm(signum: int, frame: FrameType | None) -> None:
    raise _Terminated


# ----------------------------------------------------------------------------- command line


_EPILOG = """\
examples:
  milligan-study --deals 1..1000 --time-limit 10 --workers 2
      classic deals 1 to 1000, 10 s each, 2 at a time on this machine, into study.csv
  milligan-study --rules all --deals 1..100 --out presets.csv
      every preset in turn; the same command again resumes after a stop
  milligan-study --scheduler tcp://scheduler-host:8786 --deals 1..100000 --out big.csv
      on a Dask cluster (pip install 'milligan-widget[dask]')
  milligan-study --player honest --seed 1 --deals 1..200 --out honest-seed1.csv
      the honest player at its defaults with its sampler's seed 1 (and 0, 2 into their
      own files: the seed-to-seed spread of its win rate)

--workers is the number of local processes solving deals at once. With --scheduler it is
ignored: the Dask cluster's workers solve the deals, as many at once as the cluster has
worker threads. Each Dask worker imports milligan_widget to solve a deal, so install the
package, the same version as here, in every worker's environment (pip install
milligan-widget), not only where this command runs.

python -m milligan_widget.studies.study takes the same options.
"""


def _parser() -> argparse.ArgumentParser:
    name = Path(sys.argv[0]).name if sys.argv and sys.argv[0] else ""
    parser = argparse.ArgumentParser(
        prog=name if name == "milligan-study" else "python -m milligan_widget.studies.study",
        description=__doc__.splitlines()[0],
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--rules",
        default="classic",
        help=f"a preset, or 'all' for each in turn: {', '.join(PRESETS)} (default: %(default)s)",
    )
    parser.add_argument(
        "--deals",
        type=parse_deals,
        default="1..100",
        help="deal numbers: a range like 1..1000, one number, or a list like 1..10,20..30 "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--player",
        choices=PLAYERS,
        default="thoughtful",
        help="who plays: thoughtful (the solver, which knows the stock), greedy, or honest "
        "(sampled stocks, never the real one) (default: %(default)s)",
    )
    parser.add_argument(
        "--time-limit",
        type=_seconds,
        default=None,
        help="thoughtful: the solver's seconds for each deal (default: 10); honest: the "
        "seconds for each decision (default: none: it counts positions, the same games on any "
        "machine)",
    )
    parser.add_argument(
        "--samples",
        type=_count,
        default=8,
        help="honest: the sampled stocks each decision weighs (default: %(default)s)",
    )
    parser.add_argument(
        "--node-limit",
        type=_count,
        default=20_000,
        help="honest: the positions each sample's solve may expand (default: %(default)s)",
    )
    parser.add_argument(
        "--planner",
        choices=PLANNERS,
        default=None,
        help="honest: hop judges each line on sampled stocks solved with every row known; "
        "next-row samples the next row and judges the best line after it; calibrated ranks "
        "the lines by the calibrated chance where they end (default: the preset's own: "
        + ", ".join(f"{planner} for {rules}" for rules, planner in DEFAULT_PLANNERS.items())
        + ", hop for the others)",
    )
    parser.add_argument(
        "--seed",
        type=_seed,
        default=0,
        help="honest: the seed of its sampler; each seed draws other samples, so runs of "
        "seeds 0, 1 and 2 (each into its own --out) give its win rate's seed-to-seed spread "
        "(default: %(default)s)",
    )
    parser.add_argument(
        "--workers",
        type=_workers,
        default=2,
        help="local processes solving deals at once, 1 to 256 (default: %(default)s); "
        "ignored with --scheduler, where the Dask cluster's workers solve them",
    )
    parser.add_argument(
        "--scheduler",
        help="the address of a Dask scheduler, like tcp://host:8786: solve on its cluster "
        "instead of local processes (default: none; needs milligan-widget[dask])",
    )
    parser.add_argument(
        "--out",
        type=Path,
        default=None,
        help="the results CSV, appended to as deals are solved and resumed by the next run "
        "(default: study.csv for the solver, study-greedy.csv or study-honest.csv)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command line (``milligan-study``, or ``python -m milligan_widget.studies.study``): run a
    study and print its summary; the exit status is 0, or 128 + the signal that stopped it.
    ``argv`` defaults to the command line's arguments. For example::

        main(["--deals", "1..20", "--time-limit", "2", "--out", "quick.csv"])
    """
    parser = _parser()
    args = parser.parse_args(argv)
    if args.out is None:
        args.out = Path("study.csv" if args.player == "thoughtful" else f"study-{args.player}.csv")
    if args.time_limit is None and args.player == "thoughtful":
        args.time_limit = 10.0
    presets = list(PRESETS) if args.rules == "all" else [args.rules]
    for name in presets:
        if name not in PRESETS:
            parser.error(f"{name!r} is not a preset")
    try:
        rows = read_results(args.out, lambda text: None)
        _check_kind(args.out, rows, Player(args.player))
    except StudyFileError as error:
        parser.error(str(error))
    return _run(args, presets)


def _run(args: argparse.Namespace, presets: list[str]) -> int:
    in_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if in_main_thread else None
    executor = make_executor(args.workers, args.scheduler)
    player = Player(
        args.player, args.time_limit, args.samples, args.node_limit, args.planner, args.seed
    )
    try:
        for name in presets:
            summary = run_study(
                name,
                args.deals,
                args.time_limit,
                executor,
                args.out,
                not args.quiet,
                player=player,
            )
            print("\n".join(summary.lines()), flush=True)
    except (_Terminated, KeyboardInterrupt) as stop:
        _stop_workers(executor)
        _stderr(f"stopped: the results so far are in {args.out}; run again to resume")
        return 128 + (signal.SIGTERM if isinstance(stop, _Terminated) else signal.SIGINT)
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
    executor.shutdown(wait=True)
    return 0


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def _whole(text: str, low: int, high: int) -> bool:
    """Is ``text`` a whole number from ``low`` to ``high`` (digits alone)?"""
    return text.isascii() and text.isdigit() and low <= int(text) <= high


def _count(text: str) -> int:
    if not _whole(text, 1, 10**9):
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number from 1 to 10**9")
    return int(text)


def _seed(text: str) -> int:
    if not _whole(text, 0, 2**63 - 1):
        raise argparse.ArgumentTypeError(f"{text!r} is not a seed (a whole number from 0)")
    return int(text)


def _workers(text: str) -> int:
    if not _whole(text, 1, 256):
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of workers (1 to 256)")
    return int(text)


if __name__ == "__main__":
    sys.exit(main())
