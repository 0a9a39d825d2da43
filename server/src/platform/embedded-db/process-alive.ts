/**
 * Whether a process with this pid exists: signal 0 checks without sending anything. A process
 * of another user (EPERM) exists too; only ESRCH means it is gone.
 */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException | null)?.code !== "ESRCH";
  }
}
