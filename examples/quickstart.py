"""Deal Miss Milligan #1, play a few moves and print the layout."""

from milligan_widget import Game
from milligan_widget.strategy import hint as heuristic_hint

game = Game.new(1)
print(game, end="\n\n")
for _ in range(4):
    hint = heuristic_hint(game)
    if hint is None:
        break
    move, why = hint
    print(f"{move!s:>6}  {game.describe(move)}  ({why})")
    game.play(move)
print()
print(game)
