"""The bridged call's C half: ``aclsim_asc_call`` written against CPython's API.

A C++ Ascend C call reaches ``aclsim_asc_call(id, file, line, n, args, ret)`` in
``libaclsim_ascendc.so``.  Going through a cffi callback costs about 0.8 us before any Python
runs (the callback's argument objects, its tuple, the cdata of both records, its result); this
C function does the call's fixed work itself and enters Python once, for the row's own call:

- the source location: ``(file, line)`` tuples made once per call site (a table keyed by the
  file pointer and the line, ``__builtin_FILE()`` is one literal per file) and handed to
  ``aclsim.kernel.set_source_location`` (a store into the kernel layer's thread-local location,
  callable without a Python frame); a call with ``file`` NULL, an operator expression, keeps the
  location of the kernel's previous call;
- the arguments: a handle is looked up in the bridge's handle dict, an int (a ``uint64_t``, a
  ``bool``) and a float are made here; the other kinds (struct, enum, dtype, GM pointer, array,
  string) by :meth:`aclsim.ascendc.bridge.Bridge.decode_word`;
- the row's Python callable, with the values as a vector call;
- the return as the row's C++ type says (:data:`ENCODERS`): an integer or a float is stored
  here, a template's return (``T GetValue``) by the value's type (its kind looked up once per
  type by :meth:`~aclsim.ascendc.bridge.Bridge.type_kind`), handles and pointers through the
  bridge's Python;
- an exception (any ``BaseException``) goes to the bridge's ``failed(exc, id)``, which keeps it
  for the thread and returns 1: the C++ side throws and unwinds as before.

What it needs from Python it takes once, from :func:`aclsim.ascendc.bridge.fast_state`, at the
first call.  The GIL is taken with ``PyGILState_Ensure`` (a kernel's block runs with it held:
taking it again is a counter; a host row of a C++ ``main`` takes it for real).
"""

from __future__ import annotations

__all__ = ["C_SOURCE", "ENCODERS", "STATE_FIELDS"]

#: how a row's return crosses (the codes the C side switches on)
ENCODERS = {"void": 0, "handle": 1, "pointer": 2, "integer": 3, "real": 4, "value": 5}

#: :func:`aclsim.ascendc.bridge.fast_state`'s tuple, in order
STATE_FIELDS = ("fns", "encoders", "objects", "set_location", "decode_word", "handle", "pointer",
                "encode_value", "type_kinds", "type_kind", "failed")

C_SOURCE = r"""
/* ---- aclsim_asc_call: the bridged call (aclsim/ascendc/fastcall.py says how it works) ---- */
enum { FC_NONE = 0, FC_INT = 1, FC_FLOAT = 2, FC_HANDLE = 3 };
enum { FE_VOID = 0, FE_HANDLE = 1, FE_POINTER = 2, FE_INTEGER = 3, FE_REAL = 4, FE_VALUE = 5 };
#define FC_STACK 24

static int fc_bound = 0;            /* 1: bound, -1: binding failed (every call fails) */
static PyObject *fc_fns;            /* list: the Python callable of each row id */
static const char *fc_enc;          /* the encoder code of each row id (a bytes object's buffer) */
static Py_ssize_t fc_rows;
static PyObject *fc_objects;        /* dict: handle -> object */
static PyObject *fc_set_location;   /* aclsim.kernel.set_source_location */
static PyObject *fc_decode_word;    /* (kind, sub, word) -> value: the other argument kinds */
static PyObject *fc_handle;         /* object -> its new handle */
static PyObject *fc_pointer;        /* pointer value -> host address (0: None) */
static PyObject *fc_encode_value;   /* value -> (kind, int or float): a template's return */
static PyObject *fc_type_kinds;     /* dict: type -> FC_INT / FC_FLOAT / FC_NONE (ask encode_value) */
static PyObject *fc_type_kind;      /* type -> that kind (fills type_kinds) */
static PyObject *fc_failed;         /* (exception, id) -> 1, the error kept for the thread */
static PyObject *fc_state;          /* the tuple holding all of these */

/* (file, line) -> the ("file", line) tuple: open addressing, grown at half full */
typedef struct { const char *file; int line; PyObject *where; } fc_site;
static fc_site *fc_sites;
static size_t fc_cap, fc_used;

static size_t fc_hash(const char *file, int line)
{
    uint64_t h = (uint64_t)(uintptr_t)file * 0x9E3779B97F4A7C15ull;
    h ^= (uint64_t)(uint32_t)line * 0xC2B2AE3D27D4EB4Full;
    return (size_t)(h ^ (h >> 29));
}

static int fc_grow(void)
{
    size_t cap = fc_cap ? fc_cap * 2 : 256;
    fc_site *sites = (fc_site *)calloc(cap, sizeof(fc_site));
    if (sites == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i < fc_cap; ++i) {
        if (fc_sites[i].where != NULL) {
            size_t j = fc_hash(fc_sites[i].file, fc_sites[i].line) & (cap - 1);
            while (sites[j].where != NULL) {
                j = (j + 1) & (cap - 1);
            }
            sites[j] = fc_sites[i];
        }
    }
    free(fc_sites);
    fc_sites = sites;
    fc_cap = cap;
    return 0;
}

/* the site's tuple, or NULL (borrowed) */
static PyObject *fc_find(const char *file, int line)
{
    if (fc_cap == 0) {
        return NULL;
    }
    size_t j = fc_hash(file, line) & (fc_cap - 1);
    while (fc_sites[j].where != NULL) {
        if (fc_sites[j].file == file && fc_sites[j].line == line) {
            return fc_sites[j].where;
        }
        j = (j + 1) & (fc_cap - 1);
    }
    return NULL;
}

/* the site's tuple (borrowed), made at its first call */
static PyObject *fc_where(const char *file, int line)
{
    PyObject *found = fc_find(file, line);
    if (found != NULL) {
        return found;
    }
    PyObject *name = PyUnicode_DecodeUTF8(file, (Py_ssize_t)strlen(file), "replace");
    if (name == NULL) {
        return NULL;
    }
    PyObject *where = Py_BuildValue("(Ni)", name, line);
    if (where == NULL) {
        return NULL;
    }
    /* making them ran Python (a collection): another thread may have added the site meanwhile */
    found = fc_find(file, line);
    if (found != NULL) {
        Py_DECREF(where);
        return found;
    }
    if (2 * (fc_used + 1) > fc_cap && fc_grow() < 0) {
        Py_DECREF(where);
        return NULL;
    }
    size_t j = fc_hash(file, line) & (fc_cap - 1);
    while (fc_sites[j].where != NULL) {
        j = (j + 1) & (fc_cap - 1);
    }
    fc_sites[j].file = file;
    fc_sites[j].line = line;
    fc_sites[j].where = where; /* kept for the process */
    ++fc_used;
    return where;
}

static int fc_bind(void)
{
    PyObject *module = PyImport_ImportModule("aclsim.ascendc.bridge");
    if (module == NULL) {
        return -1;
    }
    PyObject *state = PyObject_CallMethod(module, "fast_state", NULL);
    Py_DECREF(module);
    if (state == NULL) {
        return -1;
    }
    PyObject *codes = NULL;
    if (!PyArg_ParseTuple(state, "O!SO!OOOOOO!OO:fast_state", &PyList_Type, &fc_fns, &codes, &PyDict_Type,
                          &fc_objects, &fc_set_location, &fc_decode_word, &fc_handle, &fc_pointer,
                          &fc_encode_value, &PyDict_Type, &fc_type_kinds, &fc_type_kind, &fc_failed)) {
        Py_DECREF(state);
        return -1;
    }
    if (PyBytes_GET_SIZE(codes) != PyList_GET_SIZE(fc_fns)) {
        PyErr_SetString(PyExc_RuntimeError, "fast_state: one encoder per row");
        Py_DECREF(state);
        return -1;
    }
    fc_enc = PyBytes_AS_STRING(codes);
    fc_rows = PyList_GET_SIZE(fc_fns);
    fc_state = state; /* owns every object above, for the process */
    return 0;
}

/* one argument record as a new reference */
static PyObject *fc_decode(const aclsim_arg *a)
{
    switch (a->kind) {
    case FC_HANDLE: {
        PyObject *key = PyLong_FromLongLong(a->i);
        if (key == NULL) {
            return NULL;
        }
        PyObject *obj = PyDict_GetItemWithError(fc_objects, key);
        if (obj == NULL) {
            if (!PyErr_Occurred()) {
                PyErr_SetObject(PyExc_KeyError, key);
            }
            Py_DECREF(key);
            return NULL;
        }
        Py_DECREF(key);
        Py_INCREF(obj);
        return obj;
    }
    case FC_INT:
        if (a->sub == 1) { /* a uint64_t: above 2**63 it crossed as a negative int64 */
            return PyLong_FromUnsignedLongLong((unsigned long long)a->i);
        }
        if (a->sub == 2) { /* a bool (the kernel layer tests `is_set_mask is False`) */
            return PyBool_FromLong(a->i != 0);
        }
        return PyLong_FromLongLong(a->i);
    case FC_FLOAT:
        return PyFloat_FromDouble(a->f);
    default:
        return PyObject_CallFunction(fc_decode_word, "iiL", (int)a->kind, (int)a->sub, (long long)a->i);
    }
}

/* a Python int as the int64 slot holds it (a uint64 above 2**63: its bits) */
static int fc_int64(PyObject *value, int64_t *out)
{
    PyObject *number = PyNumber_Long(value);
    if (number == NULL) {
        return -1;
    }
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(number, &overflow);
    if (overflow > 0) {
        unsigned long long u = PyLong_AsUnsignedLongLong(number);
        v = (long long)u;
    }
    Py_DECREF(number);
    if (overflow < 0) {
        PyErr_SetString(PyExc_OverflowError, "the result does not fit a 64-bit integer");
        return -1;
    }
    if (v == -1 && PyErr_Occurred()) {
        return -1;
    }
    *out = (int64_t)v;
    return 0;
}

static int fc_real(PyObject *value, aclsim_arg *ret)
{
    const double f = PyFloat_AsDouble(value);
    if (f == -1.0 && PyErr_Occurred()) {
        return -1;
    }
    ret->kind = FC_FLOAT;
    ret->f = f;
    return 0;
}

/* a return whose C++ type is a template's: the value's type says how it crosses */
static int fc_value(PyObject *value, aclsim_arg *ret)
{
    if (value == Py_None) {
        ret->kind = FC_NONE;
        return 0;
    }
    long k;
    PyObject *kind = PyDict_GetItemWithError(fc_type_kinds, (PyObject *)Py_TYPE(value));
    if (kind == NULL) {
        if (PyErr_Occurred()) {
            return -1;
        }
        PyObject *found = PyObject_CallOneArg(fc_type_kind, (PyObject *)Py_TYPE(value));
        if (found == NULL) {
            return -1;
        }
        k = PyLong_AsLong(found);
        Py_DECREF(found);
    } else {
        k = PyLong_AsLong(kind);
    }
    if (k == -1 && PyErr_Occurred()) {
        return -1;
    }
    if (k == FC_INT) {
        ret->kind = FC_INT;
        return fc_int64(value, &ret->i);
    }
    if (k == FC_FLOAT) {
        return fc_real(value, ret);
    }
    PyObject *pair = PyObject_CallOneArg(fc_encode_value, value);
    if (pair == NULL) {
        return -1;
    }
    int kind_out = 0;
    PyObject *payload = NULL;
    if (!PyArg_ParseTuple(pair, "iO", &kind_out, &payload)) {
        Py_DECREF(pair);
        return -1;
    }
    int rc = 0;
    ret->kind = kind_out;
    if (kind_out == FC_FLOAT) {
        ret->f = PyFloat_AsDouble(payload);
        rc = ret->f == -1.0 && PyErr_Occurred() ? -1 : 0;
    } else if (kind_out != FC_NONE) {
        rc = fc_int64(payload, &ret->i);
    }
    Py_DECREF(pair);
    return rc;
}

static int fc_encode(int code, PyObject *value, aclsim_arg *ret)
{
    PyObject *word;
    int rc;
    switch (code) {
    case FE_VOID:
        return 0;
    case FE_INTEGER: /* C++ reads the int unless the kind says float */
        return fc_int64(value, &ret->i);
    case FE_REAL:
        return fc_real(value, ret);
    case FE_HANDLE:
    case FE_POINTER:
        word = PyObject_CallOneArg(code == FE_HANDLE ? fc_handle : fc_pointer, value);
        if (word == NULL) {
            return -1;
        }
        rc = fc_int64(word, &ret->i);
        Py_DECREF(word);
        return rc;
    default:
        return fc_value(value, ret);
    }
}

/* the pending exception to the bridge's failed(exc, id): it keeps it; 1 */
static int fc_fail(int id)
{
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value == NULL) {
        Py_XDECREF(type);
        Py_XDECREF(tb);
        return 1;
    }
    if (tb != NULL) {
        PyException_SetTraceback(value, tb);
    }
    if (fc_failed != NULL) {
        PyObject *r = PyObject_CallFunction(fc_failed, "Oi", value, id);
        if (r == NULL) {
            PyErr_WriteUnraisable(fc_failed);
        }
        Py_XDECREF(r);
    } else {
        PyErr_Restore(type, value, tb);
        PyErr_Print();
        return 1;
    }
    Py_XDECREF(type);
    Py_DECREF(value);
    Py_XDECREF(tb);
    return 1;
}

static int fc_call(int id, const char *file, int line, int n, const aclsim_arg *args, aclsim_arg *ret)
{
    if (fc_bound == 0) {
        fc_bound = fc_bind() == 0 ? 1 : -1;
        if (fc_bound < 0) {
            fprintf(stderr, "aclsim: %s could not bind its bridged call (see the traceback below)\n",
                    "libaclsim_ascendc.so");
            PyErr_Print();
        }
    }
    if (fc_bound < 0) {
        return 1;
    }
    if (file != NULL) { /* NULL: an operator expression, at the previous call's line */
        PyObject *where = fc_where(file, line);
        if (where == NULL) {
            return fc_fail(id);
        }
        PyObject *r = PyObject_CallOneArg(fc_set_location, where);
        if (r == NULL) {
            return fc_fail(id);
        }
        Py_DECREF(r);
    }
    if (id < 0 || id >= fc_rows) {
        PyErr_Format(PyExc_IndexError, "bridged call %d: the table has %zd rows", id, fc_rows);
        return fc_fail(id);
    }
    PyObject *small[FC_STACK];
    PyObject **values = n <= FC_STACK ? small : (PyObject **)PyMem_Malloc(sizeof(PyObject *) * (size_t)n);
    if (values == NULL) {
        PyErr_NoMemory();
        return fc_fail(id);
    }
    int made = 0;
    PyObject *result = NULL;
    for (; made < n; ++made) {
        values[made] = fc_decode(&args[made]);
        if (values[made] == NULL) {
            break;
        }
    }
    if (made == n) {
        PyObject *fn = PyList_GET_ITEM(fc_fns, id);
        if (PyUnicode_CheckExact(fn) && n > 0) { /* a method's name: self.name(args...) */
            result = PyObject_VectorcallMethod(fn, values, (size_t)n, NULL);
        } else {
            result = PyObject_Vectorcall(fn, values, (size_t)n, NULL);
        }
    }
    for (int i = 0; i < made; ++i) {
        Py_DECREF(values[i]);
    }
    if (values != small) {
        PyMem_Free(values);
    }
    if (result == NULL) {
        return fc_fail(id);
    }
    const int rc = fc_encode(fc_enc[id], result, ret);
    Py_DECREF(result);
    return rc == 0 ? 0 : fc_fail(id);
}

static int aclsim_asc_fast_call(int id, const char *file, int line, int n, const aclsim_arg *args,
                                aclsim_arg *ret)
{
    PyGILState_STATE gil = PyGILState_Ensure();
    const int rc = fc_call(id, file, line, n, args, ret);
    PyGILState_Release(gil);
    return rc;
}
"""
