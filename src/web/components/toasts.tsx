import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { TOAST_DELAY_MS } from '../../common/constants.ts';

type ToastVariant = 'success' | 'warning' | 'danger' | 'info';
export type ToastInput = { title: string; body: string; variant?: ToastVariant; delay?: number };
type ShownToast = ToastInput & { id: number };

const ToastContext = createContext<(toast: ToastInput) => void>(() => {});

/** Shows a toast that hides by itself after `delay` (3000 ms unless the spec says otherwise). */
export const useToast = () => useContext(ToastContext);

let nextId = 1;

/**
 * Bootstrap's toast markup and styles, driven by React. (React-Bootstrap's Toast would add its
 * transition code to the first load for the same result; see docs/decisions.)
 */
function ToastItem({ toast, onClose }: { toast: ShownToast; onClose: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onClose(toast.id), toast.delay ?? TOAST_DELAY_MS);
    return () => clearTimeout(timer);
  }, [toast.id, toast.delay, onClose]);
  return (
    <div
      className={`toast show toast-${toast.variant ?? 'success'}`}
      role="alert"
      aria-live="assertive"
      aria-atomic="true"
    >
      <div className="toast-header">
        <strong className="me-auto">{toast.title}</strong>
        <button type="button" className="btn-close" aria-label="Close notification" onClick={() => onClose(toast.id)} />
      </div>
      <div className="toast-body">{toast.body}</div>
    </div>
  );
}

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const show = useCallback((toast: ToastInput) => {
    setToasts((current) => [...current.slice(-3), { ...toast, id: nextId++ }]);
  }, []);
  const hide = useCallback((id: number) => setToasts((current) => current.filter((t) => t.id !== id)), []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div className="toast-container toast-stack">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onClose={hide} />
        ))}
      </div>
    </ToastContext.Provider>
  );
}
