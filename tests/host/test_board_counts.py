"""`pipkeeper test --board FILE` ends with one `N passed, N failed` line:
the runner's own line for each file is counted, not printed (issue 22: for
one file the line came twice, once from the runner and once as the total)."""

import re

from boardkit import run_cli, virtual_board


def test_one_closing_line_for_one_file_and_for_two(tmp_path, cache):
    root = tmp_path / "board"
    root.mkdir()
    with virtual_board(root, bare=True) as board:
        for files, least in ((["test_dgn.py"], 10), (["test_dgn.py", "test_tiles_presets.py"], 20)):
            code, out, err = run_cli("test", "--board", *files, env={"PIPKEEPER_PORT": board.port})
            found = re.findall(r"^(\d+) passed, (\d+) failed$", out, re.M)
            assert len(found) == 1, out + err
            passed, failed = map(int, found[0])
            assert passed >= least and failed == 0 and code == 0, out + err
            assert out.rstrip().endswith("%d passed, 0 failed" % passed), out
