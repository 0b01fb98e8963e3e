import type { Expansion } from './query-plan';
import { gallop } from './sorted-search';

/**
 * How many documents have an entry in at least one of `lists`, without walking the longest: its
 * documents are counted by its document frequency, and only the documents of the others that it
 * lacks are added (looked up in its bit set, or walked to in its sorted entries). `marks` is a
 * zeroed scratch array over document ids, zeroed again on return.
 */
export function countMatches(lists: readonly Expansion[], marks: Uint16Array): number {
  if (lists.length === 0) return 0;
  let longest = lists[0]!;
  for (const list of lists)
    if (list.source.docFrequency(list.word) > longest.source.docFrequency(longest.word))
      longest = list;
  const set = longest.source.docSet(longest.word);
  const { starts, docs: longDocs } = longest.source.postings;
  const longFrom = starts[longest.word]!;
  const longEnd = starts[longest.word + 1]!;
  const others = lists.filter((l) => l.source !== longest.source || l.word !== longest.word);
  // One other list needs no marks: its entries are in document order, a document's adjacent.
  const marking = others.length > 1;
  let count = longest.source.docFrequency(longest.word);
  for (const list of others) {
    const { starts, docs } = list.source.postings;
    const end = starts[list.word + 1]!;
    let at = longFrom;
    let previous = -1;
    for (let i = starts[list.word]!; i < end; i++) {
      const doc = docs[i]!;
      if (doc === previous) continue;
      previous = doc;
      if (marking) {
        if (marks[doc] !== 0) continue;
        marks[doc] = 1;
      }
      let inLongest: boolean;
      if (set !== undefined) inLongest = ((set[doc >>> 5]! >>> (doc & 31)) & 1) === 1;
      else {
        at = gallop(longDocs, at, longEnd, doc);
        inLongest = at < longEnd && longDocs[at] === doc;
      }
      if (!inLongest) count++;
    }
  }
  if (!marking) return count;
  for (const list of others) {
    const { starts, docs } = list.source.postings;
    const end = starts[list.word + 1]!;
    for (let i = starts[list.word]!; i < end; i++) marks[docs[i]!] = 0;
  }
  return count;
}
