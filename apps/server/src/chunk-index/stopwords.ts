/**
 * Words removed from indexed text and from questions (API.md §19.2). Both sides drop the same
 * stop words so that adjacent-pair phrases ("effect of X" → "effect x") still match. Question words
 * are removed from questions only: they are ordinary words inside a chunk.
 */

/** English stop words (the classic NLTK list less negations, which carry meaning in claims). */
const ENGLISH_STOP = `a about above after again against all am an and any are aren as at be because been before
being below between both but by can could couldn d did didn do does doesn doing don down during each few for from
further had hadn has hasn have haven having he her here hers herself him himself his i if in into is isn it its
itself just ll m ma me mightn more most mustn my myself needn now o of off on once only or other our ours
ourselves out over own re s same shan she should shouldn so some such t than that the their theirs them
themselves then there these they this those through to too under until up ve very was wasn we were weren
while will with won would wouldn y you your yours yourself yourselves also may might shall must us etc via`;

/** English question words and request fillers (questions only). */
const ENGLISH_QUESTION = `what who whom whose how which where why when please tell explain describe`;

/** Chinese function words (particles, pronouns, conjunctions, prepositions). */
const CHINESE_STOP = `的 了 着 过 是 在 和 与 及 以及 或 或者 也 就 都 而 且 并 并且 但 但是 之 其 等 被 把 让 给 对
于 从 向 以 为 吗 呢 吧 啊 呀 哦 嘛 么 个 这 那 这个 那个 这些 那些 此 该 我 你 他 她 它 我们 你们 他们
她们 它们 自己 有 没有 不是 就是 还 又 很 最 更 已 已经 将 会 能 可以 可能 一个 一些 一种 所 所有 如果 因为
所以 虽然 然而 以及 即 即使 则 却 之后 之前 之间 中 里 上 下 内 外 地 得`;

/** Chinese question words (questions only). */
const CHINESE_QUESTION = `什么 怎么 怎样 怎么样 如何 哪 哪些 哪个 哪里 哪儿 为什么 为何 多少 几 是否 是不是 有没有
能否 可否 请问 请 吗 呢 谁 何时 何地 何 啥 咋 告诉 介绍 一下`;

function wordSet(...lists: string[]): Set<string> {
  const out = new Set<string>();
  for (const list of lists) for (const w of list.split(/\s+/)) if (w) out.add(w);
  return out;
}

/** Removed everywhere (index and query), compared against lower-cased, un-stemmed words. */
export const STOP_WORDS: ReadonlySet<string> = wordSet(ENGLISH_STOP, CHINESE_STOP);

/** Removed from questions on top of STOP_WORDS. */
export const QUESTION_WORDS: ReadonlySet<string> = wordSet(ENGLISH_QUESTION, CHINESE_QUESTION);
