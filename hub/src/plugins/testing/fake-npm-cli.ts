/**
 * A stand-in for the npm command line, for installer tests that must not depend on npm's speed: a shell script
 * that answers `view` with a plugin manifest and `install` by writing the package into `--prefix`, printing the
 * `silly` lines real npm prints (idealTree, fetch manifest, reify, tarball, ADD). With `FAKE_NPM_HANG=1` in its
 * environment it stops halfway through writing the package and waits (a cancel test ends it); with
 * `FAKE_NPM_FAIL=<stderr file>` it prints that file and fails.
 */
import { chmod, writeFile } from "node:fs/promises";
import { join } from "node:path";

const SCRIPT = `#!/bin/sh
cmd="$1"; prefix=""; spec=""; seen=""
for arg in "$@"; do
  if [ "$seen" = "prefix" ]; then prefix="$arg"; seen=""; continue; fi
  if [ "$seen" = "ops" ]; then spec="$arg"; continue; fi
  case "$arg" in --prefix) seen="prefix";; --) seen="ops";; esac
done
name="\${spec%@*}"; version="\${spec##*@}"
if [ "$name" = "" ] || [ "$name" = "$spec" ]; then name="$spec"; version="1.0.0"; fi
manifest="{\\"name\\":\\"$name\\",\\"version\\":\\"$version\\",\\"type\\":\\"module\\",\\"main\\":\\"index.js\\",\\"hubPluginApiVersion\\":1}"
if [ -n "$FAKE_NPM_FAIL" ]; then cat "$FAKE_NPM_FAIL" >&2; exit 1; fi
if [ "$cmd" = "view" ]; then
  echo "npm http fetch GET 200 http://registry.test/$name 5ms (cache miss)" >&2
  echo "$manifest"; exit 0
fi
echo "npm silly config load:file:/usr/lib/node_modules/npm/npmrc" >&2
echo "npm silly idealTree buildDeps" >&2
echo "npm silly fetch manifest $name@$version" >&2
echo "npm http fetch GET 200 http://registry.test/$name 5ms (cache miss)" >&2
echo "npm silly placeDep ROOT $name@$version OK for:  want: $version" >&2
echo "npm silly reify moves {}" >&2
echo "npm http fetch GET 200 http://registry.test/$name/-/$name-$version.tgz 7ms (cache miss)" >&2
mkdir -p "$prefix/node_modules/$name"
echo "$manifest" > "$prefix/node_modules/$name/package.json"
if [ -n "$FAKE_NPM_HANG" ]; then
  echo "npm silly tarball extracting $name@$version" >&2
  exec sleep 60
fi
echo "export default class P { onStart() {} onConfigure() {} onShutdown() {} getConfigSchema() {} onConfigChanged() {} }" > "$prefix/node_modules/$name/index.js"
node -e 'const f=process.argv[1];const p=JSON.parse(require("fs").readFileSync(f,"utf8"));p.dependencies={...p.dependencies,[process.argv[2]]:"^"+process.argv[3]};require("fs").writeFileSync(f,JSON.stringify(p,null,2)+"\\n")' "$prefix/package.json" "$name" "$version"
echo "npm silly ADD node_modules/$name" >&2
echo "added 1 package in 1s"
`;

/** Writes the fake npm into `dir`; resolves with its path (NpmOptions.command). */
export async function writeFakeNpm(dir: string): Promise<string> {
  const path = join(dir, "fake-npm.sh");
  await writeFile(path, SCRIPT);
  await chmod(path, 0o755);
  return path;
}
