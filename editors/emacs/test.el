;;; test.el --- Batch test of pfls.el with Eglot and a real pfls -*- lexical-binding: t -*-

;; Usage: editors/emacs/run.sh PATH-TO-PFLS.  Opens examples/redblack.f
;; through the set-up in pfls.el and checks the mode, the file
;; associations, diagnostics, hover, the inlay hints' labels (asked
;; raw: Eglot 1.9 shows none) and `pfls-estimate-loop'; then the hints of
;; examples/sub2.f.

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
  (unwind-protect
      (dolist (c '(("t.hpf" . f90-mode) ("t.fcm" . fortran-mode) ("t.f90" . f90-mode) ("t.f" . fortran-mode)))
        (with-current-buffer (find-file-noselect (expand-file-name (car c) dir))
          (unless (eq major-mode (cdr c)) (pfls-test-fail "%s opens in %s" (car c) major-mode))
          (kill-buffer)))
    (delete-directory dir t)))

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

(defun pfls-test-hint-labels (needle)
  "The labels of the inlay hints of the current buffer on lines holding NEEDLE."
  (let* ((hints (jsonrpc-request (eglot-current-server) :textDocument/inlayHint
                                 (list :textDocument (eglot--TextDocumentIdentifier)
                                       :range (list :start (list :line 0 :character 0)
                                                    :end (list :line (count-lines (point-min) (point-max)) :character 0)))))
         (labels nil))
    (when (zerop (length hints)) (pfls-test-fail "no inlay hints in %s" (buffer-name)))
    (seq-doseq (h hints)
      (let* ((pos (plist-get h :position))
             (line (save-excursion
                     (goto-char (point-min))
                     (forward-line (plist-get pos :line))
                     (buffer-substring-no-properties (point) (line-end-position)))))
        (unless (= (plist-get pos :character) (length line))
          (pfls-test-fail "inlay hint not at a line end: %S" h))
        (when (string-match-p (regexp-quote needle) line)
          (push (plist-get h :label) labels))))
    (nreverse labels)))

;; The costs `pfls complexity' prints, at the ends of their lines.
(let ((got (list (pfls-test-hint-labels "PROGRAM REDBLK") (pfls-test-hint-labels "DO 100 KC"))))
  (unless (equal got '(("944 M") ("944 M")))
    (pfls-test-fail "inlay hints on PROGRAM REDBLK and DO 100: %S" got)))

(goto-char (point-min))
(search-forward "DO 100 KC")
(let ((report (pfls-estimate-loop)))
  (unless (string-match-p "\\`Loop at line 13 on 16 processors" report)
    (pfls-test-fail "estimate: %s" report)))

;; SUB2 of the PIPS report: the routine's polynomial on its header.
(let ((redblack (current-buffer)))
  (find-file (expand-file-name "examples/sub2.f" pfls-test-repo))
  (pfls-test-wait (lambda () (eglot-current-server)) "the server on sub2.f")
  (let ((got (list (pfls-test-hint-labels "SUBROUTINE SUB2") (pfls-test-hint-labels "DO 30 K"))))
    (unless (equal got '(("1/2·M³ + 75/4·M² + 1… for M ≥ 10, M even") ("-6·I - 6·J + 6·M + 70 for M + 10 ≥ I + J")))
      (pfls-test-fail "inlay hints on SUBROUTINE SUB2 and DO 30: %S" got)))
  (switch-to-buffer redblack))

(princ (format "ok (emacs %s, eglot): modes, diagnostics (%d), hover, inlay hints, estimate\n"
               emacs-version (length pfls-test-diags)))
(ignore-errors (eglot-shutdown (eglot-current-server)))
(kill-emacs 0)
;;; test.el ends here
