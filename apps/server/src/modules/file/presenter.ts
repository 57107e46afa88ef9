/** File-manager rows as API.md §12.1 shows them (dates RFC 1123; `blob_key` stays inside). */
import type { FileRow } from '@lectern/shared';
import type { FileTable } from '../../db/types.js';
import { rfc1123 } from '../../util/time.js';

export interface KbInfo {
  kb_id: string;
  kb_name: string;
  document_id: string;
}

export function presentFile(row: FileTable) {
  return {
    id: row.id,
    parent_id: row.parent_id,
    tenant_id: row.tenant_id,
    created_by: row.created_by,
    name: row.name,
    location: row.location,
    size: Number(row.size),
    // Rows are only written with the §12.3 types.
    type: row.type as FileRow['type'],
    source_type: row.source_type,
    create_time: Number(row.create_time),
    create_date: rfc1123(row.create_time) ?? '',
    update_time: Number(row.update_time),
    update_date: rfc1123(row.update_time) ?? '',
  };
}

/** A `file/list` entry: folders with their recursive size and child-folder flag, files with KB links. */
export function presentListed(
  row: FileTable,
  extras: { kbs: KbInfo[]; folderSize?: number; hasChildFolder?: boolean },
) {
  const base = presentFile(row);
  if (row.type === 'folder')
    return { ...base, size: extras.folderSize ?? 0, kbs_info: [], has_child_folder: !!extras.hasChildFolder };
  return { ...base, kbs_info: extras.kbs };
}
