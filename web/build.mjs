// Builds the playground page into dist/: the script bundle (the page's
// code and CodeMirror, with the repository's examples/ bundled in), the
// HTML and CSS, and the licences of the bundled packages. The WebAssembly
// module and wasm_exec.js are scripts/build-web.sh's part.
import * as esbuild from "esbuild";
import {copyFileSync, readFileSync, readdirSync, statSync, writeFileSync, existsSync} from "node:fs";
import {dirname, join} from "node:path";
import {fileURLToPath} from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "dist");
const examplesDir = join(here, "..", "examples");

// "pfls:examples" is every regular file of examples/, by name.
const examplesPlugin = {
  name: "pfls-examples",
  setup(build) {
    build.onResolve({filter: /^pfls:examples$/}, (args) => ({path: args.path, namespace: "pfls-examples"}));
    build.onLoad({filter: /.*/, namespace: "pfls-examples"}, () => {
      const list = readdirSync(examplesDir)
        .filter((n) => !n.startsWith(".") && statSync(join(examplesDir, n)).isFile())
        .sort()
        .map((name) => ({name, text: readFileSync(join(examplesDir, name), "utf8")}));
      return {contents: `export default ${JSON.stringify(list)};`, loader: "js", watchFiles: list.map((e) => join(examplesDir, e.name))};
    });
  },
};

const result = await esbuild.build({
  entryPoints: [join(here, "src", "main.js")],
  bundle: true,
  minify: true,
  format: "iife",
  target: "es2020",
  outfile: join(dist, "app.js"),
  plugins: [examplesPlugin],
  legalComments: "none", // the licences go to licenses.txt
  metafile: true,
  logLevel: "warning",
});

copyFileSync(join(here, "src", "index.html"), join(dist, "index.html"));
copyFileSync(join(here, "src", "style.css"), join(dist, "style.css"));

// The licence of every package that went into the bundle.
const packages = new Set();
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (m) packages.add(m[1]);
}
let notices = "The playground's script bundle (app.js) contains these packages from npm:\n";
for (const name of [...packages].sort()) {
  const dir = join(here, "node_modules", name);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((n) => /^licen[cs]e/i.test(n));
  notices += `\n==== ${name} ${pkg.version} (${pkg.license})\n\n`;
  notices += file && existsSync(join(dir, file)) ? readFileSync(join(dir, file), "utf8") : "(no licence file in the package)\n";
}
writeFileSync(join(dist, "licenses.txt"), notices);
console.log(`app.js: ${statSync(join(dist, "app.js")).size} bytes from ${packages.size} packages`);
