"""`leanbridge probe`: the two expected behaviours on small sizes, gradients, reproducibility,
JSON and the PNG plot."""

import json

import pytest
from click.testing import CliRunner

np = pytest.importorskip("numpy")

pytest.importorskip("scipy")

from scipy.optimize import check_grad

from leanbridge.families import get_family
from leanbridge.numeric.cli import probe as probe_command
from leanbridge.numeric.probe import _Model, probe


@pytest.mark.parametrize("name", ["relu", "gelu", "relu2", "softplus", "swiglu", "reglu",
                                  "geglu", "glu", "bilinear"])
def test_hand_written_gradient_matches_finite_differences(name):
    rng = np.random.default_rng(0)
    model = _Model(get_family(name), 3, 4)
    theta = rng.standard_normal(model.size)
    X, F = rng.standard_normal((25, 3)), rng.standard_normal((25, 3))

    def loss(t):
        return model.loss_and_grad(t, X, F, 7.0)[0]

    def grad(t):
        return model.loss_and_grad(t, X, F, 7.0)[1]

    assert check_grad(loss, grad, theta) < 1e-5 * max(1.0, np.linalg.norm(grad(theta)))


@pytest.mark.parametrize("name", ["relu", "gelu"])
def test_planted_S_is_fitted_to_zero_at_every_radius(name):
    result = probe(get_family(name), d=2, n=4, radii=(10, 1, 0.01), restarts=3, seed=0,
                   planted=True)
    assert len(result.S) == 2
    for item in result.radii:
        assert item.best_error < 1e-6, (item.radius, item.best_error)
        assert item.construction_error < 1e-12


@pytest.mark.parametrize("name", ["relu2", "swiglu", "abs"])
def test_never_families_stay_bounded_away_from_zero_as_r_shrinks(name):
    n = 3 if get_family(name).gated else 4
    result = probe(get_family(name), d=2, n=n, radii=(1, 0.1, 0.01), restarts=3, seed=0)
    errors = [item.best_error for item in result.radii]
    assert min(errors) > 0.05, errors
    assert errors[-1] > 0.05          # at the smallest radius


def test_generic_relu_is_bounded_away_but_generic_gelu_fits_locally():
    relu = probe(get_family("relu"), d=2, n=4, radii=(10, 0.01), restarts=3, seed=0)
    assert all(item.best_error > 1e-3 for item in relu.radii)          # scale invariant
    assert relu.radii[0].best_error == pytest.approx(relu.radii[1].best_error, rel=0.5)
    gelu = probe(get_family("gelu"), d=2, n=4, radii=(1, 0.01), restarts=2, seed=0)
    assert gelu.radii[-1].best_error < 1e-4                            # only the linear part


def test_probe_is_reproducible():
    first = probe(get_family("relu"), d=2, n=3, radii=(1, 0.1), restarts=2, seed=7)
    second = probe(get_family("relu"), d=2, n=3, radii=(1, 0.1), restarts=2, seed=7)
    assert [r.to_dict() for r in first.radii] == [r.to_dict() for r in second.radii]
    other = probe(get_family("relu"), d=2, n=3, radii=(1, 0.1), restarts=2, seed=8)
    assert [r.best_error for r in other.radii] != [r.best_error for r in first.radii]


def test_cli_json_and_plot(tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "probe.png"
    result = CliRunner().invoke(probe_command, [
        "--activation", "relu", "--activation", "relu2", "--d", "2", "--n", "3",
        "--radii", "1,0.01", "--restarts", "2", "--planted", "--json", "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    relu, relu2 = data["results"]
    assert relu["planted"] is True and relu2["planted"] is False   # planted where possible
    assert [r["radius"] for r in relu["radii"]] == [1.0, 0.01]
    assert relu["radii"][-1]["best_relative_error"] < 1e-6
    assert relu2["radii"][-1]["best_relative_error"] > 0.05
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_table():
    result = CliRunner().invoke(probe_command, ["--activation", "relu2", "--d", "2", "--n", "3",
                                                "--radii", "1,0.1", "--restarts", "1"])
    assert result.exit_code == 0
    assert "ReLU² (relu2; analysis verdict never)" in result.output
    assert "best rel. error" in result.output
