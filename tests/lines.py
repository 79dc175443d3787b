"""Winning lines the tests replay (found by milligan_widget.search.solver)."""

# A winning line of deal 8 (classic rules), found by milligan_widget.search.solver.
WIN_8 = (
    "d 7>f 7>1 8>6 5>4 6>1 1>4 1>7 3>1 d 5>f 4>2 6>7 d 8>f 8>6 1>3 2>6 6>4 d 5>f 2>1 4>7 7>8 "
    "2>8 8>6 1>4 d 3>1 1>3 d 8>f 5>f 2>8 6>4 1>7 1>3 2>8 4>2 6>4 2>6 8>3 3>6 6>3 7>5 7>6 4>7 "
    "5>6 d 2>f 4>f 3>4 8>7 3>8 3>f 8>3 2>6 4>3 d 3>f 3>8 d 2>f 3>f 6>f 4>3 6>7 6>8 d 7>2 3>8 "
    "1>3 7>5 8>6 8>6 3>6 5>6 d 7>f 5>f 8>2 8>3 8>f 8>f 2>f 8>f 8>f 8>5 d 2>f 6>f 4:2>r 4>f 1>f "
    "7>f 4>3 5>3 4>5 4>1 8>4 1>8 1>f 5>8 5>1 7>5 7>f 7>3 3>2 3>f 1>f 4>3 4>f 1>f 4>f r>f 4>f "
    "8>1 7>4 2>3 7>5 7>f 7>f 2>f 3>f 2>f 3>2 3>7 1>3 1>f 1>f r>f 5:4>r 5>f 3>f 1>f 5>f 3>7 3>f "
    "7>f 7>f 4>f 8>f 8>f 8>4 8>f 1>f r>f r>f 3>8 3>1 6>3 6>f 2>f 6>f 2>f 6>f 6>f 2>f 6>f 4>1 "
    "1>2 1>f 2>1 2>f 7>6 7>f 7>f 7>f 2>f 4>2 4>f 3>4 3>f 1>f 6>f 1>f 6>f 1>f 6>f 1>f 6>f 1>f "
    "5>3 5>f 5>f 2>f 6>f r>f 6>5 6>f 4>f 6>f 1>f 2>f 5>f 6>f 7>f 8>f 4>f 7>f r>f 1>f 2>f 3>f "
    "5>f 6>f 8>f"
)
