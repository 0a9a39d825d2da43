export function Logo() {
  return (
    <svg class="logo" viewBox="0 0 32 32" width="24" height="24" aria-hidden="true">
      <rect width="32" height="32" rx="7" fill="currentColor" />
      <path d="M10 8h8a6 6 0 0 1 0 12h-4v4h-4zm4 4v4h4a2 2 0 0 0 0-4z" fill="#fff" />
    </svg>
  );
}
