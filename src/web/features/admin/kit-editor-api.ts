import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  EditableKit,
  KitCreate,
  KitEdit,
  KitEditErrors,
  UploadedScreenshot,
} from '../../../common/schemas/kit-editor.ts';
import { ApiError, apiGet, apiPost } from '../../lib/api.ts';
import { appUrl, initialData } from '../../lib/initial-data.ts';

/** A refused save: the server's message and its message per field (`details.faq.0.answer`). */
export class KitFormError extends ApiError {
  constructor(
    status: number,
    message: string,
    readonly fields: Record<string, string>,
  ) {
    super(status, message);
    this.name = 'KitFormError';
  }
}

/** A call the shared `lib/api.ts` does not make (PUT, multipart), with the same CSRF header and errors. */
async function send<T>(method: 'PUT' | 'POST', path: string, body: BodyInit, json: boolean): Promise<T> {
  const response = await fetch(appUrl(path), {
    method,
    credentials: 'same-origin',
    headers: {
      Accept: 'application/json',
      'X-CSRF-TOKEN': initialData.csrf,
      ...(json ? { 'Content-Type': 'application/json' } : {}),
    },
    body,
  });
  const data = (await response.json().catch(() => null)) as Partial<KitEditErrors> | null;
  if (!response.ok) {
    const message = data?.message ?? 'Request failed';
    if (data?.fields) throw new KitFormError(response.status, message, data.fields);
    throw new ApiError(response.status, message);
  }
  return data as T;
}

const kitPath = (sefId: string) => `/api/admin/kits/${encodeURIComponent(sefId)}`;

export const useEditableKit = (sefId: string) =>
  useQuery({
    queryKey: ['admin', 'kit-editor', sefId],
    queryFn: () => apiGet<EditableKit>(kitPath(sefId)),
    // The form holds its own copy while the owner edits: a refetch on focus must not replace it.
    refetchOnWindowFocus: false,
  });

/** Saves the whole kit; the console's lists (kits, activity) are read again afterwards. */
export const useSaveKit = (sefId: string) => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (kit: KitEdit) => send<EditableKit>('PUT', kitPath(sefId), JSON.stringify(kit), true),
    onSuccess: (saved) => {
      client.setQueryData(['admin', 'kit-editor', sefId], saved);
      void client.invalidateQueries({ queryKey: ['admin'], predicate: (q) => q.queryKey[1] !== 'kit-editor' });
    },
  });
};

export const useCreateKit = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (kit: KitCreate) => send<EditableKit>('POST', '/api/admin/kits', JSON.stringify(kit), true),
    onSuccess: () => client.invalidateQueries({ queryKey: ['admin'] }),
  });
};

/** Stores an image for the kit; the form then lists it, and Save puts it on the product page. */
export function uploadScreenshot(sefId: string, file: File): Promise<UploadedScreenshot> {
  const form = new FormData();
  form.append('file', file);
  return send<UploadedScreenshot>('POST', `${kitPath(sefId)}/screenshots`, form, false);
}

/** Markdown as the store will show it (the server's renderer and sanitiser). */
export const previewMarkdown = (markdown: string) =>
  apiPost<{ html: string }>('/api/admin/markdown-preview', { markdown });
