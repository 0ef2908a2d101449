"""The TypeScript client's template (sdk/typescript-template/src) reads the IETF ``RateLimit``
field (draft-ietf-httpapi-ratelimit-headers-11) for its retries, as the Python client does: an
answer's ``Retry-After`` first, else the window of a quota the field says is used up. Its
``rateLimit.ts`` and ``errors.ts`` are compiled here with the project's pinned ``tsc``
(sdk/generator, installed by ``npm ci`` when missing) beside a stand-in of the generated
error codes, and run by node."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import http_sfv
import pytest

from deploy.typescript_client_package import TYPESCRIPT_COMPILER, install_typescript_generator

TEMPLATE = Path(__file__).resolve().parents[3] / "sdk" / "typescript-template" / "src"
VALUES = [
    '"minute";r=299;t=37',
    '"burst";r=0;t=30, "daily";r=0;t=86400',
    "default;r=50;t=30;pk=:dHJpYWwxMjEzMjM=:",
    '"a\\"b";r=1;flag;x=?0;d=1.5;s="q"',
]
MALFORMED = ['"minute";r=0;t=', '"minute";r=0;t=37,', "minute;R=0", '"open;r=0;t=3']
CHECK = """
import { parseRateLimit, exhaustedWindowSeconds } from './rateLimit.js';
import { retryAfterSeconds, errorFromAnswer, RateLimited } from './errors.js';
// No @types/node in the pinned compiler's folder: the arguments are read untyped.
const argv = (globalThis as unknown as { process: { argv: string[] } }).process.argv;
const values: string[] = JSON.parse(argv[2]!);
const malformed: string[] = JSON.parse(argv[3]!);
const limited = errorFromAnswer(
  new Response(null, { status: 429, headers: { ratelimit: '"minute";r=0;t=12' } }),
  { errors: [{ code: 'rate_limit_exceeded', message: 'm' }] },
);
console.log(JSON.stringify({
  parsed: values.map((value) => parseRateLimit(value).map(({ policy, parameters }) => [policy, parameters])),
  windows: values.map((value) => exhaustedWindowSeconds(value) ?? null),
  malformed: malformed.map((value) => exhaustedWindowSeconds(value) ?? null),
  retryAfterWins: retryAfterSeconds(new Headers({ 'retry-after': '5', ratelimit: '"minute";r=0;t=37' })),
  fromRateLimit: retryAfterSeconds(new Headers({ ratelimit: '"minute";r=0;t=37' })),
  quotaLeft: retryAfterSeconds(new Headers({ ratelimit: '"minute";r=12;t=37' })) ?? null,
  limited: [limited instanceof RateLimited, limited.retryAfter],
}));
"""
TSCONFIG = {
    "compilerOptions": {
        "target": "ES2022",
        "module": "nodenext",
        "moduleResolution": "nodenext",
        "lib": ["ES2022", "DOM", "DOM.Iterable"],
        "types": [],
        "strict": True,
        "skipLibCheck": True,
        "outDir": "dist",
    },
    "include": ["*.ts"],
}


@pytest.fixture(scope="module")
def answers(processes, tmp_path_factory) -> dict:
    """Return what the compiled template answers to :data:`VALUES` and the checks of CHECK."""
    if shutil.which("npm") is None or shutil.which("node") is None:
        pytest.skip("node and npm are needed to compile the TypeScript client (.ci/run installs them)")
    install_typescript_generator()  # the pinned tsc (npm ci in sdk/generator), as make sdk does
    folder = tmp_path_factory.mktemp("ts-rate-limit")
    for name in ("rateLimit.ts", "errors.ts"):
        shutil.copy(TEMPLATE / name, folder / name)
    (folder / "errorCodes.gen.ts").write_text(
        "export const ERROR_STATUS: Record<string, number> = { rate_limit_exceeded: 429 };\n"
    )
    (folder / "check.ts").write_text(CHECK)
    (folder / "package.json").write_text('{"type": "module"}\n')
    (folder / "tsconfig.json").write_text(json.dumps(TSCONFIG))
    compiled = subprocess.run([str(TYPESCRIPT_COMPILER), "-p", str(folder)], capture_output=True, text=True)
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    ran = subprocess.run(
        ["node", str(folder / "dist" / "check.js"), json.dumps(VALUES), json.dumps(MALFORMED)],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(ran.stdout)


def _reference(value: str) -> list:
    items = http_sfv.List()
    items.parse(value.encode("ascii"))
    return [
        [
            str(item.value),
            {k: {"bytes": "dHJpYWwxMjEzMjM="} if isinstance(v, bytes) else v for k, v in item.params.items()},
        ]
        for item in items
    ]


def test_a_ratelimit_value_reads_as_a_structured_field_parser_reads_it(answers):
    assert answers["parsed"] == [_reference(value) for value in VALUES]


def test_the_wait_is_the_longest_window_of_a_quota_used_up_and_a_malformed_field_is_ignored(answers):
    assert answers["windows"] == [None, 86400, None, None]
    assert answers["malformed"] == [None] * len(MALFORMED)


def test_retry_after_wins_and_ratelimit_tells_the_wait_when_it_is_absent(answers):
    assert (answers["retryAfterWins"], answers["fromRateLimit"], answers["quotaLeft"]) == (5, 37, None)
    assert answers["limited"] == [True, 12]
