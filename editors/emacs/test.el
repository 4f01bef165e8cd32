;;; test.el --- Batch test of pfls.el with Eglot and a real pfls -*- lexical-binding: t -*-

;; Usage: editors/emacs/run.sh PATH-TO-PFLS.  Opens examples/redblack.f
;; through the set-up in pfls.el and checks the mode, the file
;; associations, diagnostics, hover and `pfls-estimate-loop'.

;;; Code:

(defvar pfls-test-repo (getenv "PFLS_REPO"))
(add-to-list 'load-path (expand-file-name "editors/emacs" pfls-test-repo))
(require 'pfls)
(setq pfls-program (getenv "PFLS"))

(defun pfls-test-fail (fmt &rest args)
  (princ (concat "FAIL (emacs): " (apply #'format fmt args) "\n") #'external-debugging-output)
  (kill-emacs 1))

(defun pfls-test-wait (pred what)
  (let ((deadline (+ (float-time) 15)))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (unless (funcall pred) (pfls-test-fail "timed out waiting for %s" what))))

(let ((dir (make-temp-file "pfls-el" t)))
  (dolist (c '(("t.hpf" . f90-mode) ("t.fcm" . fortran-mode) ("t.f90" . f90-mode) ("t.f" . fortran-mode)))
    (with-current-buffer (find-file-noselect (expand-file-name (car c) dir))
      (unless (eq major-mode (cdr c)) (pfls-test-fail "%s opens in %s" (car c) major-mode))
      (kill-buffer))))

(find-file (expand-file-name "examples/redblack.f" pfls-test-repo))
(unless (eq major-mode 'fortran-mode) (pfls-test-fail "redblack.f in %s" major-mode))
(let ((contact (eglot--guess-contact)))
  (unless (equal (nth 3 contact) (list pfls-program "serve"))
    (pfls-test-fail "Eglot would run %S" (nth 3 contact)))
  (apply #'eglot contact))
(pfls-test-wait (lambda () (eglot-current-server)) "the server")

(defvar pfls-test-diags nil)
(pfls-test-wait (lambda () (setq pfls-test-diags (flymake-diagnostics))) "diagnostics")
(dolist (d pfls-test-diags)
  (when (eq (flymake-diagnostic-type d) :error)
    (pfls-test-fail "error on redblack.f: %s" (flymake-diagnostic-text d))))

(goto-char (point-min))
(search-forward "ALIGN VAL")
(backward-char 1)
(let ((hover (jsonrpc-request (eglot-current-server) :textDocument/hover
                              (eglot--TextDocumentPositionParams))))
  (unless (string-match-p "VAL" (format "%S" hover)) (pfls-test-fail "hover: %S" hover)))

(goto-char (point-min))
(search-forward "DO 100 KC")
(let ((report (pfls-estimate-loop)))
  (unless (string-match-p "\\`Loop at line 13 on 16 processors" report)
    (pfls-test-fail "estimate: %s" report)))

(princ (format "ok (emacs %s, eglot): modes, diagnostics (%d), hover, estimate\n"
               emacs-version (length pfls-test-diags)))
(ignore-errors (eglot-shutdown (eglot-current-server)))
(kill-emacs 0)
;;; test.el ends here
