"""Bench records: a measurement added to a record keeps the record's own machine and numbers."""

from __future__ import annotations

import json

from gameai.core.benchrecord import add_to_record, read_record, write_record


def test_adding_to_a_record_keeps_its_numbers_and_stamps_the_new_ones(tmp_path):
    write_record("kd", {"rates": [1, 2]}, tmp_path)
    first = read_record("kd", tmp_path)
    first["machine"]["cpu"] = "the first machine"
    (tmp_path / "kd" / "bench.json").write_text(json.dumps(first))
    add_to_record("kd", {"memo_speedup": {"a": 1.3}}, "memo_machine", tmp_path)
    rec = read_record("kd", tmp_path)
    assert rec["machine"]["cpu"] == "the first machine" and rec["rates"] == [1, 2]
    assert rec["memo_speedup"] == {"a": 1.3} and set(rec["memo_machine"]) >= {"cpu", "date",
                                                                             "load_average"}
    add_to_record("new", {"x": 1}, "x_machine", tmp_path)  # no record yet: one is made
    assert read_record("new", tmp_path)["x"] == 1
