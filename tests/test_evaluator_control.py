"""Computations calling computations: call, fusion, while, conditional, map, sort, and the
general (non-vectorizable) paths for reducers and comparators."""

import numpy as np
import pytest

from evaluator_helpers import check, run


def test_call_and_fusion_evaluate_their_computations():
    sq = "sq {\n p = f32[2] parameter(0)\n ROOT m = f32[2] multiply(p, p)\n}\n"
    x = np.array([3, -2], np.float32)
    check(run(" a = f32[2] parameter(0)\n ROOT c = f32[2] call(a), to_apply=sq", x, extra=sq), np.array([9, 4], np.float32))
    check(run(" a = f32[2] parameter(0)\n ROOT c = f32[2] fusion(a), kind=kLoop, calls=sq", x, extra=sq),
          np.array([9, 4], np.float32))


def test_while_loop_runs_until_the_condition_fails():
    comps = ("cond {\n s = (s32[], f32[]) parameter(0)\n i = s32[] get-tuple-element(s), index=0\n"
             " n = s32[] constant(5)\n ROOT lt = pred[] compare(i, n), direction=LT\n}\n"
             "body {\n s = (s32[], f32[]) parameter(0)\n i = s32[] get-tuple-element(s), index=0\n"
             " x = f32[] get-tuple-element(s), index=1\n one = s32[] constant(1)\n j = s32[] add(i, one)\n"
             " two = f32[] constant(2)\n y = f32[] multiply(x, two)\n ROOT t = (s32[], f32[]) tuple(j, y)\n}\n")
    body = (" x = f32[] parameter(0)\n z = s32[] constant(0)\n t = (s32[], f32[]) tuple(z, x)\n"
            " w = (s32[], f32[]) while(t), condition=cond, body=body\n ROOT r = f32[] get-tuple-element(w), index=1")
    check(run(body, np.float32(1.5), extra=comps), np.float32(48))  # 1.5 * 2**5


BRANCHES = "".join(f"b{k} {{\n p = f32[] parameter(0)\n c = f32[] constant({10 ** k})\n ROOT r = f32[] multiply(p, c)\n}}\n"
                   for k in range(3))


@pytest.mark.parametrize("index, factor", [(0, 1), (1, 10), (2, 100), (3, 100), (-1, 100), (2**31 - 1, 100)])
def test_conditional_index_out_of_range_runs_the_last_branch(index, factor):
    body = (" i = s32[] parameter(0)\n x = f32[] parameter(1)\n"
            " ROOT c = f32[] conditional(i, x, x, x), branch_computations={b0, b1, b2}")
    check(run(body, np.int32(index), np.float32(2), extra=BRANCHES), np.float32(2 * factor))


@pytest.mark.parametrize("pred, want", [(True, 2), (False, 20)])
def test_conditional_on_a_pred(pred, want):
    body = (" p = pred[] parameter(0)\n x = f32[] parameter(1)\n"
            " ROOT c = f32[] conditional(p, x, x), true_computation=b0, false_computation=b1")
    check(run(body, np.bool_(pred), np.float32(2), extra=BRANCHES), np.float32(want))


def test_map_applies_a_computation_per_element():
    comp = "f {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n m = f32[] multiply(a, a)\n ROOT s = f32[] add(m, b)\n}\n"
    body = " x = f32[3] parameter(0)\n y = f32[3] parameter(1)\n ROOT r = f32[3] map(x, y), dimensions={0}, to_apply=f"
    got = run(body, np.array([1, 2, 3], np.float32), np.array([10, 20, 30], np.float32), extra=comp)
    check(got, np.array([11, 24, 39], np.float32))


LT_TOTAL = ("lt {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n"
            " ROOT c = pred[] compare(a, b), direction=LT, type=TOTALORDER\n}\n")


def test_sort_with_totalorder_places_nans_last_and_negative_zero_first():
    body = " x = f32[6] parameter(0)\n ROOT s = f32[6] sort(x), dimensions={0}, to_apply=lt"
    got = run(body, np.array([3, 0.0, np.nan, -0.0, -np.inf, 1], np.float32), extra=LT_TOTAL)
    check(got, np.array([-np.inf, -0.0, 0.0, 1, 3, np.nan], np.float32))
    assert np.signbit(got[1]) and not np.signbit(got[2])


def test_sort_multiple_operands_descending_is_stable():
    gt = ("gt {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n i = s32[] parameter(2)\n j = s32[] parameter(3)\n"
          " ROOT c = pred[] compare(a, b), direction=GT\n}\n")
    body = (" k = s32[5] parameter(0)\n v = s32[5] iota(), iota_dimension=0\n"
            " ROOT s = (s32[5], s32[5]) sort(k, v), dimensions={0}, is_stable=true, to_apply=gt")
    keys, perm = run(body, np.array([1, 3, 1, 2, 3], np.int32), extra=gt)
    check(keys, np.array([3, 3, 2, 1, 1], np.int32))
    check(perm, np.array([1, 4, 3, 0, 2], np.int32))


LEX = ("lex {\n a0 = s32[] parameter(0)\n a1 = s32[] parameter(1)\n b0 = s32[] parameter(2)\n b1 = s32[] parameter(3)\n"
       " lt = pred[] compare(a0, a1), direction=LT\n eq = pred[] compare(a0, a1), direction=EQ\n"
       " gt = pred[] compare(b0, b1), direction=GT\n both = pred[] and(eq, gt)\n ROOT r = pred[] or(lt, both)\n}\n")


def test_sort_with_a_two_key_comparator_along_dim_1():
    # rows sorted by a ascending, then b descending
    body = (" a = s32[2,4] parameter(0)\n b = s32[2,4] parameter(1)\n"
            " ROOT s = (s32[2,4], s32[2,4]) sort(a, b), dimensions={1}, to_apply=lex")
    a = np.array([[2, 1, 2, 1], [0, 0, 0, 0]], np.int32)
    b = np.array([[5, 6, 7, 8], [1, 3, 2, 3]], np.int32)
    sa, sb = run(body, a, b, extra=LEX)
    check(sa, np.array([[1, 1, 2, 2], [0, 0, 0, 0]], np.int32))
    check(sb, np.array([[8, 6, 7, 5], [3, 3, 2, 1]], np.int32))


def test_sort_with_a_general_comparator_is_stable():
    # Compares only the keys, but not in the simple one-compare form, so ties must keep order.
    lt = ("lt {\n a = s32[] parameter(0)\n b = s32[] parameter(1)\n i = s32[] parameter(2)\n j = s32[] parameter(3)\n"
          " c = pred[] compare(a, b), direction=LT\n t = pred[] constant(true)\n ROOT r = pred[] and(c, t)\n}\n")
    body = (" k = s32[6] parameter(0)\n v = s32[6] iota(), iota_dimension=0\n"
            " ROOT s = (s32[6], s32[6]) sort(k, v), dimensions={0}, is_stable=true, to_apply=lt")
    keys, perm = run(body, np.array([2, 1, 2, 0, 1, 2], np.int32), extra=lt)
    check(keys, np.array([0, 1, 1, 2, 2, 2], np.int32))
    check(perm, np.array([3, 1, 4, 0, 2, 5], np.int32))


def test_general_paths_for_computations_that_are_not_elementwise():
    # A reshape to f32[1] and back makes the computation non-scalar, so it runs per element.
    lt = ("lt {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n r = f32[1] reshape(a)\n"
          " s = f32[] reshape(r)\n ROOT c = pred[] compare(s, b), direction=LT\n}\n")
    body = " x = f32[2,5] parameter(0)\n ROOT s = f32[2,5] sort(x), dimensions={1}, to_apply=lt"
    x = np.array([[5, 1, 4, 2, 3], [0, -1, 9, 9, -5]], np.float32)
    check(run(body, x, extra=lt), np.array([[1, 2, 3, 4, 5], [-5, -1, 0, 9, 9]], np.float32))
    add = ("add {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n r = f32[1] reshape(a)\n"
           " s = f32[] reshape(r)\n ROOT c = f32[] add(s, b)\n}\n")
    body = " x = f32[2,5] parameter(0)\n z = f32[] constant(1)\n ROOT r = f32[2] reduce(x, z), dimensions={1}, to_apply=add"
    check(run(body, x, extra=add), np.array([16, 13], np.float32))


def test_opt_barrier_and_tuples_pass_values_through():
    body = (" a = f32[2] parameter(0)\n t = (f32[2], f32[2]) tuple(a, a)\n"
            " b = (f32[2], f32[2]) opt-barrier(t)\n ROOT g = f32[2] get-tuple-element(b), index=1")
    check(run(body, np.array([1, 2], np.float32)), np.array([1, 2], np.float32))


def test_a_reducer_that_calls_another_computation():
    comps = ("inner {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n ROOT m = f32[] maximum(a, b)\n}\n"
             "outer {\n a = f32[] parameter(0)\n b = f32[] parameter(1)\n ROOT c = f32[] call(a, b), to_apply=inner\n}\n")
    body = " x = f32[2,3] parameter(0)\n z = f32[] constant(-inf)\n ROOT r = f32[2] reduce(x, z), dimensions={1}, to_apply=outer"
    x = np.array([[1, 9, 2], [-4, -3, -8]], np.float32)
    check(run(body, x, extra=comps), np.array([9, -3], np.float32))


def test_errors_say_which_instruction_failed():
    body = ' a = f32[2] parameter(0)\n c = f32[2] custom-call(a), custom_call_target="x"\n ROOT n = f32[2] negate(c)'
    with pytest.raises(Exception) as e:
        run(body, np.zeros(2, np.float32))
    assert "while evaluating c (custom-call) in e" in "\n".join(getattr(e.value, "__notes__", []))
