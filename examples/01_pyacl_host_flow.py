"""A pyACL host program, unchanged but for its import: the flow of seed 000.

init -> set_device -> create_context -> create_stream -> malloc / malloc_host ->
memcpy_async H2D -> a callback on the stream -> memcpy_async D2H -> synchronize ->
events timing the copies -> release in order -> finalize.
"""

import numpy as np

import aclsim.acl as acl

ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
DEVICE_ID = 0


def check_ret(message, ret):
    if ret != ACL_SUCCESS:
        raise RuntimeError(f"{message} failed ret={ret}: {acl.get_recent_err_msg()}")


ret = acl.init()
check_ret("acl.init", ret)
ret = acl.rt.set_device(DEVICE_ID)
check_ret("acl.rt.set_device", ret)
context, ret = acl.rt.create_context(DEVICE_ID)
check_ret("acl.rt.create_context", ret)
stream, ret = acl.rt.create_stream()
check_ret("acl.rt.create_stream", ret)
run_mode, ret = acl.rt.get_run_mode()
check_ret("acl.rt.get_run_mode", ret)

# A callback thread, as in the pyACL samples.
running = True
seen = []


def callback_thread(args_list):
    ctx, timeout_ms = args_list
    acl.rt.set_context(ctx)
    while running:
        acl.rt.process_report(timeout_ms)


def on_copied(user_data):
    seen.append(user_data[0])


tid, ret = acl.util.start_thread(callback_thread, [context, 100])
check_ret("acl.util.start_thread", ret)
ret = acl.rt.subscribe_report(tid, stream)
check_ret("acl.rt.subscribe_report", ret)

data = np.arange(1 << 18, dtype=np.float32)
size = data.nbytes
dev_ptr, ret = acl.rt.malloc(size, ACL_MEM_MALLOC_HUGE_FIRST)
check_ret("acl.rt.malloc", ret)
host_ptr, ret = acl.rt.malloc_host(size)
check_ret("acl.rt.malloc_host", ret)
start, ret = acl.rt.create_event()
check_ret("acl.rt.create_event", ret)
end, ret = acl.rt.create_event()
check_ret("acl.rt.create_event", ret)

ret = acl.rt.record_event(start, stream)
check_ret("acl.rt.record_event", ret)
data_ptr = acl.util.numpy_to_ptr(data)
ret = acl.rt.memcpy_async(dev_ptr, size, data_ptr, size, ACL_MEMCPY_HOST_TO_DEVICE, stream)
check_ret("acl.rt.memcpy_async", ret)
ret = acl.rt.launch_callback(on_copied, ["h2d done"], 1, stream)
check_ret("acl.rt.launch_callback", ret)
ret = acl.rt.memcpy_async(host_ptr, size, dev_ptr, size, ACL_MEMCPY_DEVICE_TO_HOST, stream)
check_ret("acl.rt.memcpy_async", ret)
ret = acl.rt.record_event(end, stream)
check_ret("acl.rt.record_event", ret)
ret = acl.rt.synchronize_stream(stream)
check_ret("acl.rt.synchronize_stream", ret)

result = acl.util.ptr_to_numpy(host_ptr, (data.size,), 11)  # 11 = NPY_FLOAT32
elapsed_ms, ret = acl.rt.event_elapsed_time(start, end)
check_ret("acl.rt.event_elapsed_time", ret)
print(f"run mode {run_mode}, {size} B there and back in {elapsed_ms:.3f} ms of device time, "
      f"callbacks {seen}")
assert np.array_equal(result, data) and seen == ["h2d done"]

ret = acl.rt.unsubscribe_report(tid, stream)
check_ret("acl.rt.unsubscribe_report", ret)
running = False
ret = acl.util.stop_thread(tid)
check_ret("acl.util.stop_thread", ret)
for event in (start, end):
    check_ret("acl.rt.destroy_event", acl.rt.destroy_event(event))
check_ret("acl.rt.free", acl.rt.free(dev_ptr))
check_ret("acl.rt.free_host", acl.rt.free_host(host_ptr))
check_ret("acl.rt.destroy_stream", acl.rt.destroy_stream(stream))
check_ret("acl.rt.destroy_context", acl.rt.destroy_context(context))
check_ret("acl.rt.reset_device", acl.rt.reset_device(DEVICE_ID))
check_ret("acl.finalize", acl.finalize())
print("PASS")
