/** The file manager page and the knowledge base's Files tab. */
export { KbFilesTab } from './KbFilesTab';
