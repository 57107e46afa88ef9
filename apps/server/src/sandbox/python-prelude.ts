/**
 * Python side of the Pyodide sandbox, run once after the interpreter loads. It is the first of
 * several layers (the worker also locks down the JavaScript realm, see python.worker.ts):
 * - imports that reach the network, the FFI to JavaScript or native code are refused for all code
 *   (`_socket`, `_ctypes`, `js`, `pyodide_js`…), so no stdlib route leads to them either;
 * - the user's script gets its own builtins: `__import__` refuses the modules that reach the process,
 *   the file system or the interpreter's internals (os, sys, subprocess, importlib, gc…), `open` is
 *   refused and `io` comes without its file classes;
 * - after a run, module state the script changed (a patched stdlib function would see the next
 *   run's data) is detected and the worker is replaced; modules it imported first are dropped.
 * `_lectern_run(script, args_json)` returns `[kind, payload]`: ("ok", result JSON) or (error kind, message).
 */
/**
 * Modules scripts commonly use, imported before the memory snapshot is taken (python.worker.ts), so
 * neither a run nor a restored worker pays for them; the prelude then watches them like the others.
 */
export const PYTHON_WARM_IMPORTS = String.raw`
import json, math, types, traceback, io, os, re, datetime, collections, itertools, functools, statistics
import random, decimal, fractions, string, textwrap, csv, base64, hashlib, typing, dataclasses, enum, heapq
import bisect, copy, time, operator, uuid
`;

export const PYTHON_PRELUDE = String.raw`
import builtins as _builtins, sys as _sys, json as _json, math as _math, types as _types, traceback as _traceback
import io as _io

_BLOCKED_EVERYWHERE = frozenset({
    '_socket', 'socket', '_ssl', 'ssl', '_ctypes', 'ctypes', 'js', 'pyodide_js', 'micropip',
    '_posixsubprocess', 'subprocess', 'select', 'selectors', '_multiprocessing', 'multiprocessing',
    'pyodide.http', 'pyodide.code', 'pyodide.ffi', 'pyodide.webloop', 'urllib.request', 'http.client',
})
_BLOCKED_FOR_USER = frozenset({
    'os', 'posix', 'nt', 'sys', 'subprocess', 'socket', 'ssl', 'select', 'selectors', 'ctypes', 'cffi',
    'js', 'pyodide', 'pyodide_js', '_pyodide', '_pyodide_core', 'micropip', 'importlib', 'imp', 'zipimport',
    'pkgutil', 'runpy', 'multiprocessing', 'threading', '_thread', 'signal', 'shutil', 'pathlib', 'tempfile',
    'glob', 'fileinput', 'gc', 'inspect', 'builtins', 'code', 'codeop', 'marshal', 'pickle', '_pickle', 'shelve',
    'dbm', 'sqlite3', 'urllib', 'http', 'ftplib', 'smtplib', 'poplib', 'imaplib', 'socketserver', 'xmlrpc',
    'asyncio', 'webbrowser', 'sysconfig', 'site', '_imp', 'resource', 'mmap', 'fcntl', 'pty', 'tty', 'termios',
    'linecache', 'tokenize', 'codecs', '_io', 'zipfile', 'tarfile', 'gzip', 'bz2', 'lzma', 'logging', 'trace',
    'tracemalloc', 'faulthandler', 'pdb', 'bdb', 'ensurepip', 'venv', 'distutils', 'setuptools', 'atexit',
    'ctypes.util', '_frozen_importlib', '_frozen_importlib_external', 'posixpath', 'genericpath', 'filecmp',
    'wave', 'aifc', 'sunau', 'mailbox', 'pyexpat',
})


def _top(name):
    return name.split('.')[0]


class _DenyFinder:
    """Refuses the modules that reach the network or foreign code, whoever imports them."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name in _BLOCKED_EVERYWHERE or _top(name) in {'_socket', '_ssl', '_ctypes', 'ctypes', 'js', 'pyodide_js', 'micropip'}:
            raise ImportError(f"import of {name} is not allowed in the sandbox")
        return None


_sys.meta_path.insert(0, _DenyFinder)
for _name in list(_sys.modules):
    if _name in _BLOCKED_EVERYWHERE or _top(_name) in {'js', 'pyodide_js'}:
        del _sys.modules[_name]

# Process control that Emscripten would forward to the host: refused outright.
import os as _os


def _denied(*_a, **_k):
    raise PermissionError("this operation is not allowed in the sandbox")


for _fn in ('system', 'popen', 'execv', 'execve', 'execl', 'execle', 'execlp', 'execvp', 'execvpe', 'spawnv',
            'spawnve', 'fork', 'forkpty', 'kill', 'killpg', 'putenv', 'unsetenv', 'chdir', 'chroot', 'symlink',
            'link', 'mkfifo', 'mknod', 'posix_spawn', 'posix_spawnp'):
    if hasattr(_os, _fn):
        setattr(_os, _fn, _denied)

_real_import = _builtins.__import__
_user_io = _types.ModuleType('io', 'In-memory streams (file classes are not available in the sandbox).')
for _k in ('StringIO', 'BytesIO', 'TextIOWrapper', 'IOBase', 'RawIOBase', 'BufferedIOBase', 'TextIOBase',
           'SEEK_SET', 'SEEK_CUR', 'SEEK_END', 'UnsupportedOperation', 'DEFAULT_BUFFER_SIZE'):
    setattr(_user_io, _k, getattr(_io, _k))
_sys.modules['_lectern_user_io'] = _user_io  # watched like the other modules


def _user_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level == 0 and (_top(name) in _BLOCKED_FOR_USER or name in _BLOCKED_FOR_USER or name in _BLOCKED_EVERYWHERE):
        raise ImportError(f"import of {name} is not allowed in the sandbox")
    if level == 0 and name == 'io':
        return _user_io
    return _real_import(name, globals, locals, fromlist, level)


def _no_files(*_a, **_k):
    raise PermissionError("file access is not allowed in the sandbox")


_USER_BUILTINS = dict(_builtins.__dict__)
for _k in ('input', 'breakpoint', 'exit', 'quit', 'help', 'copyright', 'credits', 'license'):
    _USER_BUILTINS.pop(_k, None)
_USER_BUILTINS['__import__'] = _user_import
_USER_BUILTINS['open'] = _no_files


def _plain(value, depth=0):
    """A JSON-serialisable copy: tuples/sets → lists, bytes → text, NaN/inf → None, other objects → str."""
    if depth > 100:
        raise ValueError('the result is nested too deeply')
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if _math.isfinite(value) else None
    if isinstance(value, dict):
        return {str(k): _plain(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_plain(v, depth + 1) for v in value]
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode('utf-8', 'replace')
    return str(value)


_HEAPTYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: classes defined in Python, whose attributes can be replaced


def _fingerprint_of(name, module):
    """Identity of a module's attributes and of the attributes of the Python classes it defines
    (built-in types are immutable). Values are compared by id, in dict order, keys included by count."""
    d = getattr(module, '__dict__', None)
    if not isinstance(d, dict):
        return 0
    values = list(d.values())
    ids = list(map(id, values))
    for v in values:
        if isinstance(v, type) and v.__flags__ & _HEAPTYPE and v.__module__ == name:
            ids.extend(map(id, list(v.__dict__.values())))
    return hash(tuple(ids))


_BASELINE = {}


def _lectern_seal():
    """Records the state of every loaded module; called once the sandbox is locked down."""
    _BASELINE.clear()
    for name, module in list(_sys.modules.items()):
        _BASELINE[name] = _fingerprint_of(name, module)


def _lectern_after_run():
    """True when the run changed a loaded module (the worker is then replaced). Modules the run
    imported for the first time are dropped, so the next run imports them afresh."""
    for name in list(_sys.modules):
        if name not in _BASELINE:
            del _sys.modules[name]
    for name, print_ in _BASELINE.items():
        module = _sys.modules.get(name)
        if module is None or _fingerprint_of(name, module) != print_:
            return True
    return False


def _lectern_run(script, args_json):
    args = _json.loads(args_json)
    scope = {'__name__': '__main__', '__builtins__': dict(_USER_BUILTINS)}
    try:
        code = compile(script, 'script.py', 'exec')
        exec(code, scope)
        main = scope.get('main')
        if not callable(main):
            return ['program_error', 'The script must define a function main(...).']
        result = main(**args)
        payload = ['ok', _json.dumps(_plain(result), ensure_ascii=False)]
    except KeyboardInterrupt:
        payload = ['timeout', 'time limit']
    except MemoryError:
        payload = ['memory', 'memory limit']
    except RecursionError:
        payload = ['memory', 'The script went too deep (recursion limit).']
    except ImportError as e:
        payload = ['unauthorized', str(e)]
    except PermissionError as e:
        payload = ['unauthorized', str(e)]
    except SyntaxError as e:
        payload = ['program_error', f'SyntaxError: {e.msg} (line {e.lineno})']
    except BaseException as e:
        frames = [f for f in _traceback.extract_tb(e.__traceback__) if f.filename == 'script.py']
        where = f' (line {frames[-1].lineno})' if frames else ''
        payload = ['program_error', f'{type(e).__name__}: {e}{where}']
    finally:
        scope.clear()
    # A script that changed shared module state (monkeypatching json, say) must not meet the next run.
    if _lectern_after_run():
        payload.append('recycle')
    return payload
`;
