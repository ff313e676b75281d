"""Damaged or degenerate weight files are one-line input errors (exit 2) for `absorb` too:
corrupt .npz members (bad CRC, damaged .npy header, a member that is no .npy array), files that
are no zip archive (text, empty, truncated), object arrays, and empty (d = 0, n = 0) matrices —
each said in the user's terms, not NumPy's."""

import io
import zipfile

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")
pytest.importorskip("scipy")

from leanbridge.cli import main
from leanbridge.numeric.errors import NumericInputError
from leanbridge.numeric.weights import load_block


def _npy_bytes(array, allow_pickle=False):
    buffer = io.BytesIO()
    np.lib.format.write_array(buffer, array, allow_pickle=allow_pickle)
    return buffer.getvalue()


def _write_npz(path, members):
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name + ".npy", data)


def _good():
    rng = np.random.default_rng(0)
    return rng.standard_normal((3, 8)), rng.standard_normal((8, 3))


def bad_crc(path):
    W_down, W_up = _good()
    _write_npz(path, {"W_down": _npy_bytes(W_down), "W_up": _npy_bytes(W_up)})
    raw = bytearray(path.read_bytes())
    at = raw.index(b"W_down.npy") + len(b"W_down.npy") + 150      # in W_down's data
    raw[at] ^= 0xFF
    path.write_bytes(bytes(raw))


def bad_header(path):
    W_down, W_up = _good()
    data = bytearray(_npy_bytes(W_down))
    data[10:30] = b"{'descr': garbage!!,"                         # consistent CRC, bad header
    _write_npz(path, {"W_down": bytes(data), "W_up": _npy_bytes(W_up)})


def object_array(path):
    _, W_up = _good()
    W_down = np.empty((3, 8), dtype=object)
    W_down[:] = 1.0
    _write_npz(path, {"W_down": _npy_bytes(W_down, allow_pickle=True), "W_up": _npy_bytes(W_up)})


def unbalanced_header(path):
    # numpy's header parser tokenizes it: an unclosed parenthesis used to come out as
    # "('EOF in multi-line statement', (2, 0))"
    W_down, W_up = _good()
    data = bytearray(_npy_bytes(W_down))
    at = data.index(b"(3, 8)")
    data[at:at + 6] = b"(3, 8 "
    _write_npz(path, {"W_down": bytes(data), "W_up": _npy_bytes(W_up)})


def member_not_npy(path):
    _, W_up = _good()
    _write_npz(path, {"W_down": b"these are not the bytes of an array", "W_up": _npy_bytes(W_up)})


def not_a_zip(path):
    # numpy.load would try it as a pickle and speak of "pickled (object) data"
    path.write_text("W_down = [[1, 2], [3, 4]]\n" * 4, encoding="utf-8")


def empty_file(path):
    path.write_bytes(b"")


def truncated_zip(path):
    W_down, W_up = _good()
    _write_npz(path, {"W_down": _npy_bytes(W_down), "W_up": _npy_bytes(W_up)})
    path.write_bytes(path.read_bytes()[:100])


def zero_d(path):
    np.savez(path, W_down=np.ones((0, 8)), W_up=np.ones((8, 0)))


def zero_n(path):
    np.savez(path, W_down=np.ones((3, 0)), W_up=np.ones((0, 3)))


CASES = [
    (bad_crc, "cannot read 'W_down'", "Bad CRC-32"),
    (bad_header, "cannot read 'W_down'", ": corrupt .npy header"),
    (unbalanced_header, "cannot read 'W_down'", ": corrupt .npy header"),
    (member_not_npy, "cannot read 'W_down'", "the member is not a .npy array"),
    (not_a_zip, "block.npz", "as .npz: not a .npz (zip) archive"),
    (empty_file, "block.npz", "not a .npz (zip) archive (the file is empty)"),
    (truncated_zip, "block.npz", "as .npz: damaged or truncated zip archive"),
    (object_array, "object array", "does not load"),
    (zero_d, "shape 0×8", "it is empty"),
    (zero_n, "shape 3×0", "it is empty"),
]


@pytest.mark.parametrize("make, first, second", CASES, ids=[c[0].__name__ for c in CASES])
def test_absorb_exits_2_with_one_line(tmp_path, make, first, second):
    path = tmp_path / "block.npz"
    make(path)
    result = CliRunner().invoke(main, ["absorb", str(path), "--activation", "relu"])
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and err.startswith("Error: ") and "Traceback" not in err
    assert first in err and second in err
    assert len(err) < 400                       # a damaged header is not echoed whole
    for internal in ("pickled (object) data", "allow_pickle", "EOF in multi-line",
                     "Cannot parse header", "'descr'"):
        assert internal not in err, err         # numpy's words, not the user's


@pytest.mark.parametrize("make", [c[0] for c in CASES], ids=[c[0].__name__ for c in CASES])
def test_load_block_raises_the_input_error(tmp_path, make):
    path = tmp_path / "block.npz"
    make(path)
    with pytest.raises(NumericInputError):
        load_block(path)


def test_the_good_archive_of_these_helpers_loads(tmp_path):
    """The corruptions above are what fails: the same archive undamaged is fine."""
    W_down, W_up = _good()
    path = tmp_path / "block.npz"
    _write_npz(path, {"W_down": _npy_bytes(W_down), "W_up": _npy_bytes(W_up)})
    block = load_block(path)
    assert np.array_equal(block.W_down, W_down)


@pytest.mark.parametrize("make, message", [
    (not_a_zip, "as .npz: not a .npz (zip) archive"),
    (empty_file, "not a .npz (zip) archive (the file is empty)"),
])
def test_scan_says_the_same(tmp_path, make, message):
    path = tmp_path / "block.npz"
    make(path)
    result = CliRunner().invoke(main, ["scan", str(path), "--activation", "relu"])
    assert result.exit_code == 2, result.output
    err = result.stderr.strip()
    assert len(err.splitlines()) == 1 and message in err, err
    assert "pickled (object) data" not in err and "No data left" not in err
