// A small highlighter for Fortran, fixed and free form, with the directive
// sentinels of HPF, CM Fortran and OpenMP and the Fortran D statements.
// The analyses' own diagnostics come from pfls; this only colours the text.
import {StreamLanguage} from "@codemirror/language";

const keywords = new Set(`
  program subroutine function module contains end block data entry return stop call
  do enddo while continue cycle exit go goto to if then else elseif endif select case default
  where elsewhere forall implicit none integer real double precision complex logical character
  dimension parameter common equivalence external intrinsic save data format allocatable allocate
  deallocate pointer target intent in out inout optional use only interface type print write read
  open close recursive pure elemental result
  decomposition align distribute with onto template processors independent new reduction
  block cyclic layout serial news parallel private shared
`.split(/\s+/).filter(Boolean));

// Directive sentinels at the start of a line (after blanks in free form).
const fixedSentinel = /^[cC*!](?:hpf\$|cmf\$|\$omp|\$)/i;
const freeSentinel = /^\s*!(?:hpf\$|cmf\$|\$omp)/i;

function tokenizer(fixed) {
  return {
    name: "fortran",
    startState: () => ({}),
    token(stream) {
      if (stream.sol()) {
        const line = stream.string;
        const m = (fixed ? fixedSentinel : freeSentinel).exec(line);
        if (m) {
          stream.pos = m[0].length;
          return "meta";
        }
        if (fixed && /^[cC*]/.test(line) || /^\s*!/.test(line)) {
          stream.skipToEnd();
          return "comment";
        }
        if (fixed && /^[ \d]{5}/.test(line)) {
          // Columns 1-5: a label; column 6: a continuation mark.
          const label = line.slice(0, 5);
          stream.pos = 5;
          if (line.length > 5 && line[5] !== " " && line[5] !== "0") {
            stream.pos = 6;
            return "operator";
          }
          if (label.trim() !== "") return "labelName";
        }
      }
      if (stream.eatSpace()) return null;
      if (stream.peek() === "!") {
        stream.skipToEnd();
        return "comment";
      }
      const ch = stream.next();
      if (ch === "'" || ch === '"') {
        while (!stream.eol()) {
          if (stream.next() === ch) {
            if (stream.peek() === ch) stream.next();
            else break;
          }
        }
        return "string";
      }
      if (/\d/.test(ch)) {
        stream.match(/^\d*(\.\d*)?([edqED][+-]?\d+)?/);
        return "number";
      }
      if (ch === ".") {
        if (stream.match(/^(and|or|not|eqv|neqv|eq|ne|lt|le|gt|ge|true|false)\./i)) return "operator";
        if (stream.match(/^\d+([edED][+-]?\d+)?/)) return "number";
        return null;
      }
      if (/[a-z_]/i.test(ch)) {
        stream.match(/^[\w$]*/);
        return keywords.has(stream.current().toLowerCase()) ? "keyword" : "variableName";
      }
      return /[=+\-*\/<>:]/.test(ch) ? "operator" : null;
    },
    languageData: {commentTokens: {line: fixed ? "C" : "!"}},
  };
}

export const fixedForm = StreamLanguage.define(tokenizer(true));
export const freeForm = StreamLanguage.define(tokenizer(false));
