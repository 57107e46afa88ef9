import { useEffect, useReducer, useRef } from 'react';
import { UPLOAD_LIMITS, formatBytes } from '@lectern/shared';
import { useTranslation } from 'react-i18next';
import { uploadFileWithProgress } from '../../api/file';
import { entriesToStart, relativePathOf, uploadReducer, type UploadEntry } from './upload-queue';

let uidCounter = 0;

/**
 * Runs the upload queue: files added go into `parentId` with their relative paths, a few at a time,
 * each with its own progress; `onStored` runs after every stored file (to re-read the list).
 */
export function useUploadQueue(onStored: () => void) {
  const { t } = useTranslation();
  const [entries, dispatch] = useReducer(uploadReducer, []);
  const files = useRef(new Map<string, File>());
  const started = useRef(new Set<string>());
  const stored = useRef(onStored);
  stored.current = onStored;

  useEffect(() => {
    for (const e of entriesToStart(entries)) {
      if (started.current.has(e.uid)) continue;
      const file = files.current.get(e.uid);
      if (!file) continue;
      started.current.add(e.uid);
      dispatch({ type: 'start', uid: e.uid });
      void uploadFileWithProgress(file, e.path, e.parentId, (fraction) =>
        dispatch({ type: 'progress', uid: e.uid, fraction }),
      ).then((result) => {
        started.current.delete(e.uid);
        if (result.code === 0) {
          dispatch({ type: 'done', uid: e.uid });
          stored.current();
        } else {
          dispatch({ type: 'fail', uid: e.uid, error: result.message });
        }
      });
    }
  }, [entries]);

  const add = (picked: File[], parentId: string | undefined) => {
    const max = UPLOAD_LIMITS.maxFileBytes;
    const added: Array<Pick<UploadEntry, 'uid' | 'path' | 'size' | 'parentId'> & { error?: string }> = [];
    for (const file of picked) {
      const uid = `f${++uidCounter}`;
      files.current.set(uid, file);
      const path = relativePathOf(file);
      added.push({
        uid,
        path,
        size: file.size,
        parentId,
        error: file.size > max ? t('files.tooLarge', { max: formatBytes(max) }) : undefined,
      });
    }
    if (added.length > 0) dispatch({ type: 'add', entries: added });
  };

  const clearFinished = () => {
    for (const e of entries) if (e.state === 'uploaded') files.current.delete(e.uid);
    dispatch({ type: 'clearFinished' });
  };

  return { entries, add, dispatch, clearFinished };
}

export type UploadQueue = ReturnType<typeof useUploadQueue>;
