/** What other features use of the chat area: the answer stream, message pieces and document preview. */
export { AnswerBody } from './conversation/AnswerBody';
export { Composer } from './conversation/Composer';
export { useDocumentOpener } from './conversation/document-context';
export { DocumentPreviewProvider } from './conversation/DocumentPreview';
export { MessageItem } from './conversation/MessageItem';
export { useAnswerStream } from './conversation/use-answer-stream';
export { toReference, toReferenceChunk, type StreamedAnswer } from './lib/answer-stream';
export { newId, referenceSlots, withQuestion } from './lib/messages';
