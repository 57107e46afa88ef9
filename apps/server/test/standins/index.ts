/**
 * Stand-in servers for third-party model APIs, on 127.0.0.1 with a random port, speaking the real wire
 * protocols. Reuse them in any test that needs a model:
 *
 *   const llm = await startOpenAIStandin({ embeddingDim: 384, reply: (b) => 'scripted answer' });
 *   // add it as an OpenAI-API-Compatible model with api_base = llm.url, then chat/embed as usual
 *   llm.fail('429', 2);   // the next two model calls answer 429, then they succeed
 *   await llm.close();
 *
 * Embeddings are deterministic (`standinEmbedding(text, dim)`: hashed bag of words), rerank scores are
 * the share of query words in the document (`lexicalScore`).
 */
export {
  standinEmbedding,
  lexicalScore,
  countTokens,
  type Standin,
  type FaultKind,
  type RecordedRequest,
} from './common.js';
export {
  startOpenAIStandin,
  defaultReply,
  type OpenAIStandinOptions,
  type ChatScript,
  type OpenAIChatBody,
} from './openai.js';
export { startAnthropicStandin, type AnthropicStandinOptions } from './anthropic.js';
export { startGeminiStandin, type GeminiStandinOptions } from './gemini.js';
export { startOllamaStandin, type OllamaStandinOptions } from './ollama.js';
export { startRerankStandin, type RerankFlavor, type RerankStandinOptions } from './rerank.js';
export { startHubStandin } from './hub.js';
export { startLangfuseStandin, type LangfuseStandin, type LangfuseEvent } from './langfuse.js';
export { writeTinyEmbeddingModel } from './tiny-model.js';
export { graphRagReply, extractionAnswer, namesIn } from './graphrag.js';
export { startMcpStandin, type McpStandin } from './mcp.js';
