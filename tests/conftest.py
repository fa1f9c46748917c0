"""Options for the whole test suite. `--campaign` is registered here, at the root, so that
`pytest tests --campaign` works as well as `pytest tests/reliability --campaign`."""


def pytest_addoption(parser):
    parser.addoption(
        "--campaign",
        action="store_true",
        default=False,
        help="reliability tests: run a long fuzzing campaign (thousands of hypothesis examples)",
    )
