import type { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode } from 'react';

const focus = 'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-indigo-300';

export function Field({ id, label, ...input }: { id: string; label: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        className={`block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm shadow-xs focus:border-indigo-500 ${focus}`}
        {...input}
      />
    </div>
  );
}

export function Button({ variant = 'primary', ...props }: { variant?: 'primary' | 'secondary' } & ButtonHTMLAttributes<HTMLButtonElement>) {
  const look =
    variant === 'primary'
      ? 'bg-indigo-600 text-white hover:bg-indigo-500 border-indigo-600'
      : 'bg-white text-slate-700 hover:bg-slate-50 border-slate-300';
  return <button className={`w-full rounded-lg border px-4 py-2 text-sm font-semibold ${look} ${focus}`} {...props} />;
}

export function Alert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="mb-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {children}
    </p>
  );
}
