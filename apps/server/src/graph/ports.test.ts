import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ChatModel, EmbeddingModel } from '../models/ports.js';
import { addUsage, emptyUsage, type GraphChatModel, type GraphEmbedder } from './ports.js';

describe('graph ports', () => {
  it("accept the server's model ports as they are", () => {
    // Compile-time: the registry's models plug into the graph and RAPTOR cores without adapters.
    expectTypeOf<ChatModel>().toExtend<GraphChatModel>();
    expectTypeOf<EmbeddingModel>().toExtend<GraphEmbedder>();
  });

  it('adds token usage, tolerating missing fields', () => {
    const u = addUsage(emptyUsage(), { promptTokens: 3, completionTokens: 4, totalTokens: 7 });
    addUsage(u, { promptTokens: 1 });
    addUsage(u, undefined);
    expect(u).toEqual({ promptTokens: 4, completionTokens: 4, totalTokens: 7 });
  });
});
