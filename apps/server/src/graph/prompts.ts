/**
 * Prompts of the knowledge-graph job, written for Lectern in the style of GraphRAG and LightRAG: the same
 * record format (./records.ts), so any model that has seen those projects' prompts answers it readily.
 * `light` is one short pass; `general` is a fuller prompt followed by gleaning rounds.
 */
import { COMPLETION_DELIMITER, RECORD_DELIMITER, TUPLE_DELIMITER } from './records.js';

const T = TUPLE_DELIMITER;
const R = RECORD_DELIMITER;
const C = COMPLETION_DELIMITER;

function formatRules(entityTypes: readonly string[]): string {
  return `1. Identify every entity whose type is one of: [${entityTypes.join(', ')}]. For each entity give
- entity_name: the name as written in the text, capitalized
- entity_type: one of the types above
- entity_description: a complete description of the entity's attributes and activities, using only the text
Format each entity as ("entity"${T}<entity_name>${T}<entity_type>${T}<entity_description>)

2. Among those entities, identify every pair (source_entity, target_entity) that is clearly related. For each pair give
- source_entity and target_entity: names of entities identified in step 1
- relationship_description: why the two entities are related
- relationship_keywords: a few comma-separated keywords summarizing the relationship
- relationship_strength: an integer from 1 (weak) to 10 (strong)
Format each relationship as ("relationship"${T}<source_entity>${T}<target_entity>${T}<relationship_description>${T}<relationship_keywords>${T}<relationship_strength>)

3. Output all entities and relationships as one list, records separated by ${R}.

4. When finished, output ${C}`;
}

const EXAMPLE = `Text:
Ada Lovelace worked with Charles Babbage in London on the Analytical Engine, a mechanical computer he designed.
Output:
("entity"${T}ADA LOVELACE${T}PERSON${T}Ada Lovelace was a mathematician who worked with Charles Babbage on the Analytical Engine.)${R}
("entity"${T}CHARLES BABBAGE${T}PERSON${T}Charles Babbage designed the Analytical Engine, a mechanical computer.)${R}
("entity"${T}LONDON${T}GEO${T}London is the city where Lovelace and Babbage worked.)${R}
("relationship"${T}ADA LOVELACE${T}CHARLES BABBAGE${T}Ada Lovelace worked with Charles Babbage on his Analytical Engine.${T}collaboration, computing${T}9)${R}
("relationship"${T}CHARLES BABBAGE${T}LONDON${T}Charles Babbage worked in London.${T}location, work${T}5)
${C}`;

export interface ExtractionPromptInput {
  entityTypes: readonly string[];
  /** Language the descriptions are written in ("English", "Chinese", …). */
  language?: string;
}

/** One-pass prompt (`light`). */
export function lightExtractionPrompt(input: ExtractionPromptInput): string {
  return `-Goal-
Given a text and a list of entity types, extract the entities of those types and the relationships between them.

-Steps-
${formatRules(input.entityTypes)}

Write descriptions in ${input.language || 'the language of the text'}. Output nothing but the records.

-Example-
${EXAMPLE}`;
}

/** Fuller prompt (`general`), followed by gleaning rounds. */
export function generalExtractionPrompt(input: ExtractionPromptInput): string {
  return `-Goal-
You are building a knowledge graph. Given a text document and a list of entity types, identify all entities
of those types in the text and all relationships among the identified entities. Be exhaustive: every person,
organization, place, event or concept of a listed type that the text mentions is an entity, even when it is
mentioned once. Do not invent entities or facts that the text does not state.

-Steps-
${formatRules(input.entityTypes)}

-Guidance-
- Use the same entity_name every time the same entity appears; prefer the most complete name.
- A relationship connects two entities that both appear as entity records.
- Descriptions are self-contained sentences; they will be merged with descriptions from other texts.
- Write descriptions in ${input.language || 'the language of the text'}. Output nothing but the records.

-Example-
${EXAMPLE}`;
}

export function extractionUserMessage(text: string): string {
  return `-Real Data-\nEntity types: see above\nText:\n${text}\nOutput:`;
}

/** Gleaning: ask for what was missed, in the same format. */
export const CONTINUE_PROMPT = `MANY entities and relationships were missed in the last extraction. Add them below using the same format, listing only the new records, and end with ${C}.`;

/** Gleaning loop check: the answer must start with YES or NO. */
export const LOOP_PROMPT =
  'It appears some entities or relationships may still have been missed. Answer YES if there are still entities or relationships to add, or NO if there are none. Answer with the single word YES or NO.';

/** Merges the descriptions of one entity (or one relationship) into one. */
export function summarizeDescriptionsPrompt(
  subject: string,
  descriptions: readonly string[],
  maxTokens: number,
  language?: string,
): string {
  return `You are writing the description of one item of a knowledge graph.
Given the item and a list of descriptions of it gathered from different texts, write a single comprehensive
description that covers the information of all of them. Resolve contradictions into one coherent account.
Write in the third person and mention the item's name. Use at most ${maxTokens} tokens. Write in ${language || 'the language of the descriptions'}.

Item: ${subject}
Descriptions:
${descriptions.map((d) => `- ${d}`).join('\n')}

Output only the description.`;
}
