"""The published pyACL single-op sample, run on aclsim: Ascend/samples
``python/level1_single_api/1_acl/4_blas/acl_operator_add/src/acl_execute_add.py``.

The program below makes the same calls with the same arguments in the same order as that
sample (an int32 "Add" of two 8 x 16 matrices through tensor descriptions, data buffers and
``acl.op.execute_v2``), with its constants as its ``constant.py`` defines them; ``import acl``
resolves to ``aclsim.acl``.  The sample loads its op from ``../test_data/op_models`` (made by
``atc --singleop``): the test gives it that directory, empty, since aclsim's built-in ops
need no ``.om`` file.
"""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import aclsim.acl
from aclsim.errors import LeakWarning

# constant.py of the sample
ACL_SUCCESS = 0
NPY_INT = 5
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_FORMAT_ND = 2
acl_dtype = {
    "dt_undefined": -1,
    "float": 0,
    "float16": 1,
    "int8": 2,
    "int32": 3,
    "uint8": 4,
    "int16": 6,
    "uint16": 7,
    "uint32": 8,
    "int64": 9,
    "double": 11,
    "bool": 12,
}


def check_ret(message: str, ret: int) -> None:
    if ret != ACL_SUCCESS:
        raise Exception(f"{message} failed ret={ret}")


class AddOperator:
    """The sample's ``Operator`` class: init, inputs, output, execute_v2, read back, release."""

    def __init__(
        self,
        acl: Any,
        device_id: int,
        factor_a: np.ndarray,
        factor_b: np.ndarray,
        op_model_path: str,
        config_path: str | None = None,
    ) -> None:
        self.acl, self.device_id, self.op_model_path, self.config_path = (
            acl,
            device_id,
            op_model_path,
            config_path,
        )
        self.context = self.stream = self.op_attr = None
        self.op_type, self.format_type = "Add", ACL_FORMAT_ND
        self.factor_a, self.factor_b = factor_a, factor_b
        self._inputs_desc: list[int] = []
        self._inputs_device: list[int] = []
        self._inputs_device_buffer: list[int] = []
        self.output_desc: list[int] = []
        self.device_outputs: list[int] = []
        self.device_buffer_outputs: list[int] = []
        self.host_outputs: list[int] = []
        self.init_resource()

    def init_resource(self) -> None:
        acl = self.acl
        if isinstance(self.config_path, str) and os.path.exists(self.config_path):
            check_ret("acl.init", acl.init(self.config_path))
        elif self.config_path is None:
            check_ret("acl.init", acl.init())
        check_ret("acl.rt.set_device", acl.rt.set_device(self.device_id))
        self.context, ret = acl.rt.create_context(self.device_id)
        check_ret("acl.rt.create_context", ret)
        self.stream, ret = acl.rt.create_stream()
        check_ret("acl.rt.create_stream", ret)
        self.shape = list(self.factor_a.shape)
        self.data_type = str(self.factor_a.dtype)
        self.op_attr = acl.op.create_attr()
        check_ret("acl.op.set_model_dir", acl.op.set_model_dir(self.op_model_path))

    def gen_input_tensor(self) -> None:
        acl = self.acl
        for factor in (self.factor_a, self.factor_b):
            tensor = acl.create_tensor_desc(acl_dtype[self.data_type], self.shape, self.format_type)
            factor_size = acl.get_tensor_desc_size(tensor)
            factor_device, ret = acl.rt.malloc(factor_size, ACL_MEM_MALLOC_NORMAL_ONLY)
            check_ret("acl.rt.malloc", ret)
            if "bytes_to_ptr" in dir(acl.util):
                bytes_data = factor.tobytes()
                factor_ptr = acl.util.bytes_to_ptr(bytes_data)
            else:
                factor_ptr = acl.util.numpy_to_ptr(factor)
            ret = acl.rt.memcpy(
                factor_device, factor_size, factor_ptr, factor_size, ACL_MEMCPY_HOST_TO_DEVICE
            )
            check_ret("acl.rt.memcpy", ret)
            factor_buffer = acl.create_data_buffer(factor_device, factor_size)
            self._inputs_device.append(factor_device)
            self._inputs_device_buffer.append(factor_buffer)
            self._inputs_desc.append(tensor)

    def gen_output_tensor(self) -> None:
        acl = self.acl
        self.operator_output = acl.create_tensor_desc(acl_dtype[self.data_type], self.shape, self.format_type)
        factor_size = acl.get_tensor_desc_size(self.operator_output)
        factor_device, ret = acl.rt.malloc(factor_size, ACL_MEM_MALLOC_NORMAL_ONLY)
        check_ret("acl.rt.malloc", ret)
        self.device_outputs.append(factor_device)
        self.device_buffer_outputs.append(acl.create_data_buffer(factor_device, factor_size))
        self.host_outputs.append(acl.rt.malloc_host(factor_size)[0])
        self.output_desc.append(self.operator_output)

    def forward(self) -> None:
        acl = self.acl
        ret = acl.op.execute_v2(
            self.op_type,
            self._inputs_desc,
            self._inputs_device_buffer,
            self.output_desc,
            self.device_buffer_outputs,
            self.op_attr,
            self.stream,
        )
        check_ret("acl.op.execute_v2", ret)
        check_ret("acl.rt.synchronize_stream", acl.rt.synchronize_stream(self.stream))

    def get_operator_result(self) -> list[np.ndarray]:
        acl = self.acl
        result = []
        for index, factor in enumerate(self.output_desc):
            factor_size = acl.get_tensor_desc_size(factor)
            ret = acl.rt.memcpy(
                self.host_outputs[index],
                factor_size,
                self.device_outputs[index],
                factor_size,
                ACL_MEMCPY_DEVICE_TO_HOST,
            )
            check_ret("acl.rt.memcpy", ret)
            if "ptr_to_bytes" in dir(acl.util):
                bytes_data = acl.util.ptr_to_bytes(self.host_outputs[index], factor_size)
                data = np.frombuffer(bytes_data, dtype=np.int32).reshape(tuple(self.shape))
            else:
                data = acl.util.ptr_to_numpy(self.host_outputs[index], tuple(self.shape), NPY_INT)
            result.append(data)
        return result

    def release_resource(self) -> None:
        acl = self.acl
        while self._inputs_desc:
            check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(self._inputs_device_buffer.pop()))
            check_ret("acl.rt.free", acl.rt.free(self._inputs_device.pop()))
            acl.destroy_tensor_desc(self._inputs_desc.pop())
        while self.output_desc:
            check_ret("acl.destroy_data_buffer", acl.destroy_data_buffer(self.device_buffer_outputs.pop()))
            check_ret("acl.rt.free", acl.rt.free(self.device_outputs.pop()))
            acl.destroy_tensor_desc(self.output_desc.pop())
        if self.op_attr:
            acl.op.destroy_attr(self.op_attr)
            self.op_attr = None
        if self.stream:
            check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(self.stream))
            self.stream = None
        if self.context:
            check_ret("acl.rt.destroy_context", acl.rt.destroy_context(self.context))
            self.context = None
        check_ret("acl.rt.reset_device", acl.rt.reset_device(self.device_id))
        check_ret("acl.finalize", acl.finalize())

    def run(self) -> list[np.ndarray]:
        self.gen_input_tensor()
        self.gen_output_tensor()
        self.forward()
        result = self.get_operator_result()
        self.release_resource()
        return result


@pytest.fixture
def acl(monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setitem(sys.modules, "acl", aclsim.acl)
    import acl as pyacl

    return pyacl


def test_the_acl_execute_add_sample(acl: Any, tmp_path: Path) -> None:
    (tmp_path / "test_data" / "op_models").mkdir(parents=True)
    (tmp_path / "src").mkdir()
    a = np.random.randint(100, size=(8, 16)).astype(np.int32)
    b = np.random.randint(100, size=(8, 16)).astype(np.int32)
    current_dir = str(tmp_path / "src")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", LeakWarning)
        op = AddOperator(acl, 0, a, b, os.path.join(current_dir, "../test_data/op_models"))
        result_list = op.run()
    assert len(result_list) == 1
    np.testing.assert_array_equal(result_list[0], a + b)
    # the sample never frees its malloc_host output buffer; aclsim's finalize reports it
    leaks = [str(w.message) for w in caught if issubclass(w.category, LeakWarning)]
    assert len(leaks) == 1 and "malloc_host" in leaks[0] and "512B" in leaks[0]
    assert acl.get_recent_err_msg() is None  # no call failed


def test_the_sample_without_its_model_directory_fails_at_set_model_dir(
    acl: Any, tmp_path: Path, finalize_quietly: Any
) -> None:
    a = np.ones((8, 16), np.int32)
    with pytest.raises(Exception, match=r"acl.op.set_model_dir failed ret=100003"):
        AddOperator(acl, 0, a, a, str(tmp_path / "no_such_dir"))
