"""The cube rows of api_cxx.txt: the structs' C layout, TCubeTiling's fields, the generated struct hooks."""

from __future__ import annotations

import dataclasses

import pytest

import aclsim.kernel as asc
from aclsim.ascendc import gen_cxx
from aclsim.ascendc.adapters.cube import TILING_FIELDS
from aclsim.ascendc.table import Table, cdef, load, parse_row


def test_a_struct_field_of_an_unscoped_enum_has_the_underlying_c_type() -> None:
    cffi = pytest.importorskip("cffi")
    enum = parse_row("enum QuantMode_t : int32_t unscoped prefix=Q_ = QuantMode", 1)
    struct = parse_row("struct P(uint16_t n = 0, QuantMode_t quantPre = NoQuant) = FixpipeParamsV220", 2)
    table = Table([enum, struct])
    text = cdef(table)
    assert "int32_t quantPre;" in text
    cffi.FFI().cdef(text)  # parses (it did not: "int32_t unscoped quantPre")
    cffi.FFI().cdef(cdef(load()))


def test_tcube_tiling_fields_are_the_python_fields_in_order() -> None:
    row = next(r for r in load().of("struct") if r.name == "TCubeTiling")
    python = [f.name for f in dataclasses.fields(asc.TCubeTiling)]
    assert python == list(TILING_FIELDS)
    # the same names, CANN's camel case (shareL0CSize) against aclsim's snake case (share_l0c_size)
    assert [p.name.lower() for p in row.params] == [n.replace("_", "") for n in python]
    assert all(p.ctype == "int32_t" for p in row.params)


def test_structs_cross_by_their_struct_id_and_list_their_fields() -> None:
    header = gen_cxx.cxx_header()
    for ident, row in enumerate(load().of("struct")):
        trait = f"struct StructId<::AscendC::{row.name}> {{ static constexpr int value = {ident}; }};"
        assert trait in header
        assert f"#define ACLSIM_FIELDS_{row.name}(X) " in header
        assert f"#ifdef ACLSIM_STRUCT_EXTRA_{row.name}" in header
    assert "inline Arg pack(const ::AscendC::" not in header  # an overload after call() is never found


def test_mmad_params_cross_with_every_field() -> None:
    from aclsim.ascendc.adapters.cube import mmad_params

    p = mmad_params(16, 32, 48, True, 0, False, False, False, 3, False, True, False)
    assert (p.m, p.n, p.k, p.is_bias, p.unit_flag, p.cmatrix_source, p.cmatrix_init_val) == \
        (16, 32, 48, True, 3, True, False)
